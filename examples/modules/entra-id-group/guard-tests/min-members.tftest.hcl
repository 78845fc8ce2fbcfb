# Each file of guard-tests/ holds one run that member-sync's guard must
# STOP: terraform test reports it failed, with member-sync's error
# ("Module output value precondition failed" in ../member-sync/outputs.tf,
# or the read's postcondition). A run here that passes means the guard is
# not wired or was weakened. expect_failures cannot say so: it names only
# the root module's objects (hashicorp/terraform#34700), and member-sync is
# a child here. One run a file, since a stopped run skips the next.

mock_provider "joinit" {}
mock_provider "azuread" {}

override_data {
  target = data.azuread_group.this
  values = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = ["u-ada"] }
}

# Two addresses read, but only Ada's is an Entra user's mail: one user
# found, which is what min_members counts.
override_data {
  target = data.azuread_users.members["0000"]
  values = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "ada@x.org" }] }
}

run "too_few_users_found_stop_the_plan" {
  command = plan

  variables {
    group_object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
    min_members     = 2
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1" },
        { id = "m2", email = "grace@x.org", organization_id = "org-1" },
      ]
    }
  }
}
