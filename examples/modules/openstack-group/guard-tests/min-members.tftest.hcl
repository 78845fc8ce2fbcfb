# Each file of guard-tests/ holds one run that member-sync's guard must
# STOP: terraform test reports it failed, with member-sync's error
# ("Module output value precondition failed" in ../member-sync/outputs.tf,
# or the read's postcondition). A run here that passes means the guard is
# not wired or was weakened. expect_failures cannot say so: it names only
# the root module's objects (hashicorp/terraform#34700), and member-sync is
# a child here. One run a file, since a stopped run skips the next.
#
# The group's members are user keys, the id of the oldest membership of
# each address, and the OpenStack provider lists no group's users: the
# current members are previous_members.

mock_provider "joinit" {}
mock_provider "openstack" {}

run "too_few_users_stop_the_plan" {
  command = plan

  # The group holds Ada's user, kept by her oldest membership (m3): nobody
  # is removed.
  variables {
    group_name       = "members"
    previous_members = ["m3"]
    min_members      = 2
  }

  # Three memberships read, two addresses, but only Ada is active (m1
  # renews m3): one user in the group, which is what min_members counts.
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1", status = 100, status_name = "active", created = "2024-03-01" },
        { id = "m2", email = "grace@x.org", organization_id = "org-1", status = 350, status_name = "cancelled", created = "2023-05-01" },
        { id = "m3", email = "ada@x.org", organization_id = "org-1", status = 300, status_name = "expired", created = "2022-01-01" },
      ]
    }
  }
}
