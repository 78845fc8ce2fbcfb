# Offline: both providers are mocked, on their real schemas (this
# repository's make test installs the GitHub provider v6.13.0 for it), so no
# API, no token and no GitHub organization are needed.

mock_provider "joinit" {}
mock_provider "github" {}

variables {
  team_slug    = "members"
  max_removals = 1
  maintainers  = ["grace-h"]
}

# The team now, for every run: one member Join It still has (spelled
# otherwise), one it no longer has.
override_data {
  target = data.github_team.this
  values = { id = "4242", members = ["Grace-H", "left-long-ago"] }
}

run "answers_become_usernames" {
  command = plan

  override_data {
    target = data.joinit_memberships.team
    values = {
      records = [
        { id = "m1", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "@Ada-L" }] },
        { id = "m2", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = " grace-h " }] },
        { id = "m3", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "ada-l" }] },
        { id = "m4", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "" }] },
        { id = "m5", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace hopper" }] },
        { id = "m6", organization_id = "org-1", custom_answers = [{ question_id = "q2", question = "T-shirt size", answer = "M" }] },
        { id = "m7", organization_id = "org-1", custom_answers = null },
      ]
    }
  }

  assert {
    condition     = output.members == tolist(["ada-l", "grace-h"])
    error_message = "members is ${jsonencode(output.members)}: want the two usable usernames, without @, spaces or capitals, each once"
  }
  assert {
    condition     = output.to_add == tolist(["ada-l"]) && output.to_remove == tolist(["left-long-ago"])
    error_message = "to_add is ${jsonencode(output.to_add)} and to_remove ${jsonencode(output.to_remove)}"
  }
  assert {
    condition     = output.members_without_username == tolist(["m4", "m5", "m6", "m7"])
    error_message = "members_without_username is ${jsonencode(output.members_without_username)}: want the empty, invalid and missing answers"
  }
  assert {
    condition     = { for m in github_team_members.this.members : m.username => m.role } == { "ada-l" = "member", "grace-h" = "maintainer" } && github_team_members.this.team_slug == "members"
    error_message = "the team's members block is ${jsonencode(github_team_members.this.members)}: want ada-l a member and grace-h, a maintainer, kept one"
  }
}

run "too_few_usernames_stop_the_plan" {
  command = plan

  variables {
    min_members  = 2
    max_removals = 2
  }

  override_data {
    target = data.joinit_memberships.team
    values = { records = [{ id = "m1", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace-h" }] }] }
  }

  expect_failures = [output.members]
}

run "too_many_removals_stop_the_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.team
    values = { records = [{ id = "m1", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "ada-l" }] }] }
  }

  expect_failures = [github_team_members.this]
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    organization_id = "org-1"
  }

  override_data {
    target = data.joinit_memberships.team
    values = {
      records = [
        { id = "m1", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace-h" }] },
        { id = "m2", organization_id = "org-2", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "ada-l" }] },
      ]
    }
  }

  expect_failures = [data.joinit_memberships.team]
}

run "a_fraction_rounds_down" {
  command = plan

  # A tenth of the team's two members is no removal at all.
  variables {
    max_removals = 0.1
  }

  override_data {
    target = data.joinit_memberships.team
    values = { records = [{ id = "m1", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace-h" }] }] }
  }

  expect_failures = [github_team_members.this]
}
