# Each file of guard-tests/ holds one run that member-sync's guard must
# STOP: terraform test reports it failed, with member-sync's error
# ("Module output value precondition failed" in ../member-sync/outputs.tf,
# or the read's postcondition). A run here that passes means the guard is
# not wired or was weakened. expect_failures cannot say so: it names only
# the root module's objects (hashicorp/terraform#34700), and member-sync is
# a child here. One run a file, since a stopped run skips the next.

mock_provider "joinit" {}
mock_provider "github" {}

# The team holds Ada, as GitHub spells her: nobody is removed.
override_data {
  target = data.github_team.this
  values = { id = "4242", members = ["Ada-L"] }
}

run "too_few_usernames_stop_the_plan" {
  command = plan

  variables {
    team_slug   = "members"
    min_members = 2
  }

  # Two memberships read, but Grace's answer is no GitHub username: one
  # username, which is what min_members counts.
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "@ada-l" }] },
        { id = "m2", email = "grace@x.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace hopper" }] },
      ]
    }
  }
}
