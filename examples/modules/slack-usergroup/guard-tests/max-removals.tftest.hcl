# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "slack" {}

override_data {
  target = data.slack_usergroup.this
  values = { id = "S0123ABCD", handle = "members", description = "", channels = [], users = ["U0ADA", "U0GONE", "U0GONE2"] }
}

override_data {
  target = data.slack_user.member["m1"]
  values = { id = "U0ADA" }
}

# Two of three users leave; one is allowed.
run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  variables {
    usergroup_id = "S0123ABCD"
    max_removals = 1
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [{ id = "m1", email = "ada@x.org", organization_id = "org-1" }] }
  }
}
