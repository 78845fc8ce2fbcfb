# Each file of guard-tests/ holds one run that member-sync's guard must
# STOP: terraform test reports it failed, with member-sync's error
# ("Module output value precondition failed" in ../member-sync/outputs.tf,
# or the read's postcondition). A run here that passes means the guard is
# not wired or was weakened. expect_failures cannot say so: it names only
# the root module's objects (hashicorp/terraform#34700), and member-sync is
# a child here. One run a file, since a stopped run skips the next.

mock_provider "joinit" {}
mock_provider "slack" {}

override_data {
  target = data.slack_usergroup.this
  values = { id = "S0123ABCD", handle = "members", description = "", channels = [], users = ["U0ADA"] }
}

override_data {
  target = data.slack_user.member["m1"]
  values = { id = "U0ADA" }
}

# Two spellings of one address: one user found.
run "too_few_users_stop_the_plan" {
  command = plan

  variables {
    usergroup_id = "S0123ABCD"
    min_members  = 2
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1" },
        { id = "m2", email = "Ada@X.org", organization_id = "org-1" },
      ]
    }
  }
}
