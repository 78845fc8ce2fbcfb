# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "openstack" {}

# The group as the last apply left it, 25 users, of whom two have since
# cancelled: one over the max_removals set, but within member-sync's
# default (a tenth of 25, 2), so a module that does not pass max_removals
# on, or does not count against previous_members, plans them.
run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  variables {
    group_name       = "members"
    previous_members = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : "m${i}"]
    max_removals     = 1
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : { id = "m${i}", email = "member${i}@x.org", organization_id = "org-1", status = i < 23 ? 100 : 350, status_name = i < 23 ? "active" : "cancelled", created = "2024-01-01" }] }
  }
}
