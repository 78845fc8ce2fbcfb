# Each file of guard-tests/ holds one run that member-sync's guard must
# STOP: terraform test reports it failed, with member-sync's error
# ("Module output value precondition failed" in ../member-sync/outputs.tf,
# or the read's postcondition). A run here that passes means the guard is
# not wired or was weakened. expect_failures cannot say so: it names only
# the root module's objects (hashicorp/terraform#34700), and member-sync is
# a child here. One run a file, since a stopped run skips the next.

mock_provider "joinit" {}
mock_provider "googleworkspace" {}

override_data {
  target = data.googleworkspace_group_members.this
  values = {
    members = [
      { email = "Ann@x.org", role = "MEMBER", type = "USER" },
      { email = "owner@x.org", role = "OWNER", type = "USER" },
    ]
  }
}

# One x.org member read besides the owner, whom keep_members holds: the
# group would hold two, but the owner does not count.
run "too_few_members_stop_the_plan" {
  command = plan

  variables {
    group_email    = "members@x.org"
    keep_members   = { "owner@x.org" = "OWNER" }
    member_domains = ["x.org"]
    min_members    = 2
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ann@x.org", organization_id = "org-1" },
        { id = "m2", email = "Owner@x.org", organization_id = "org-1" },
        { id = "m3", email = "eve@elsewhere.net", organization_id = "org-1" },
      ]
    }
  }
}
