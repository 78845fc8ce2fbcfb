# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "azuread" {}

# An empty group, and a user found for each address: were the read let
# through, no other guard would stop it.
override_data {
  target = data.azuread_group.this
  values = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = [] }
}

override_data {
  target = data.azuread_users.members["0000"]
  values = { object_ids = ["u-ada", "u-grace"], users = [
    { object_id = "u-ada", mail = "ada@x.org" },
    { object_id = "u-grace", mail = "grace@x.org" },
  ] }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    group_object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
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
