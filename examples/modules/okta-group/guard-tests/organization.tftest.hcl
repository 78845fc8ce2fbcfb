# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "okta" {}

# An empty group, and a user found for each address: were the read let
# through, no other guard would stop it.
override_data {
  target = data.okta_group.this
  values = { id = "00g-members", users = [] }
}

override_data {
  target = data.okta_users.members["0000"]
  values = { users = [
    { id = "00u-ada", email = "ada@x.org", status = "ACTIVE" },
    { id = "00u-grace", email = "grace@x.org", status = "ACTIVE" },
  ] }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    group_id        = "00g-members"
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
