# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "github" {}

# The team's 25 members, of whom Join It no longer has two: one over the
# max_removals set, but within member-sync's default (a tenth of 25, 2),
# so a module that does not pass max_removals on plans them.
override_data {
  target = data.github_team.this
  values = { id = "4242", members = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : "Member-${i}"] }
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  variables {
    team_slug    = "members"
    max_removals = 1
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24] : { id = "m${i}", email = "member${i}@x.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "member-${i}" }] } if i < 23] }
  }
}
