# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "azuread" {}

# The group's 25 direct members, of whom Join It no longer has two: one
# over the max_removals set, but within member-sync's default (a tenth of
# 25, 2), so a module that does not pass max_removals on plans them.
override_data {
  target = data.azuread_group.this
  values = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : "u-${i}"] }
}

override_data {
  target = data.azuread_users.members["0000"]
  values = {
    object_ids = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : "u-${i}" if i < 23]
    users      = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : { object_id = "u-${i}", mail = "member${i}@x.org" } if i < 23]
  }
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  variables {
    group_object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
    max_removals    = 1
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : { id = "m${i}", email = "member${i}@x.org", organization_id = "org-1" } if i < 23] }
  }
}
