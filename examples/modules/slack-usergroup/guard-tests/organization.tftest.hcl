# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "slack" {}

# An empty group: were the read let through, no other guard would stop it.
override_data {
  target = data.slack_usergroup.this
  values = { id = "S0123ABCD", handle = "members", description = "", channels = [], users = [] }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    usergroup_id    = "S0123ABCD"
    organization_id = "org-1"
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1" },
        { id = "m2", email = "grace@x.org", organization_id = "org-2" },
      ]
    }
  }
}
