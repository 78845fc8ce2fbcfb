# Must STOP at member-sync's guard: see min-members.tftest.hcl.

mock_provider "joinit" {}
mock_provider "github" {}

# An empty team, and a username in each answer: were the read let through,
# no other guard would stop it.
override_data {
  target = data.github_team.this
  values = { id = "4242", members = [] }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    team_slug       = "members"
    organization_id = "org-1"
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "ada-l" }] },
        { id = "m2", email = "grace@x.org", organization_id = "org-2", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace-h" }] },
      ]
    }
  }
}
