# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "googleworkspace" {}

override_data {
  target = data.googleworkspace_group_members.this
  values = {
    members = [
      { email = "Ann@x.org", role = "MEMBER", type = "USER" },
      { email = "gone@x.org", role = "MEMBER", type = "USER" },
      { email = "owner@x.org", role = "OWNER", type = "USER" },
    ]
  }
}

# Ann and gone@ leave, two removals; the owner, whom Join It does not hold
# either, is not one. One is allowed.
run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  variables {
    group_email  = "members@x.org"
    keep_members = { "owner@x.org" = "OWNER" }
    max_removals = 1
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [{ id = "m1", email = "grace@x.org", organization_id = "org-1" }] }
  }
}
