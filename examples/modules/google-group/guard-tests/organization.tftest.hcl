# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "googleworkspace" {}

override_data {
  target = data.googleworkspace_group_members.this
  values = { members = [{ email = "ann@x.org", role = "MEMBER", type = "USER" }] }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    group_email     = "members@x.org"
    organization_id = "org-1"
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ann@x.org", organization_id = "org-1" },
        { id = "m2", email = "grace@x.org", organization_id = "org-2" },
      ]
    }
  }
}
