# Each file of guard-tests/ holds one run that member-sync's guard must
# STOP: terraform test reports it failed, with member-sync's error
# ("Module output value precondition failed" in ../member-sync/outputs.tf,
# or the read's postcondition). A run here that passes means the guard is
# not wired or was weakened. expect_failures cannot say so: it names only
# the root module's objects (hashicorp/terraform#34700), and member-sync is
# a child here. One run a file, since a stopped run skips the next.

mock_provider "joinit" {}
mock_provider "okta" {}

override_data {
  target = data.okta_group.this
  values = { id = "00g-members", users = ["00u-ada"] }
}

# Two addresses read, but Grace's only Okta user is deprovisioned: one user
# found, which is what min_members counts.
override_data {
  target = data.okta_users.members["0000"]
  values = { users = [
    { id = "00u-ada", email = "ada@x.org", status = "ACTIVE" },
    { id = "00u-grace", email = "grace@x.org", status = "DEPROVISIONED" },
  ] }
}

run "too_few_users_found_stop_the_plan" {
  command = plan

  variables {
    group_id    = "00g-members"
    min_members = 2
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
