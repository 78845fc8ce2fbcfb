# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "openstack" {}

# The first apply (no previous_members) of two active members: were the
# read let through, no other guard would stop it.
run "another_organization_stops_the_plan" {
  command = plan

  variables {
    group_name      = "members"
    organization_id = "org-1"
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1", status = 100, status_name = "active", created = "2024-01-01" },
        { id = "m2", email = "grace@x.org", organization_id = "org-2", status = 100, status_name = "active", created = "2024-01-01" },
      ]
    }
  }
}
