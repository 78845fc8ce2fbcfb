# Offline, both providers mocked on their real schemas: this module's
# mapping (member-sync's tests cover case, blanks, duplicates, fractions;
# guard-tests/, each guard stopping this module's plan).

mock_provider "joinit" {}
mock_provider "github" {}

variables {
  team_slug    = "members"
  max_removals = 1
  maintainers  = ["Grace-H"]
}

# The team now: one member Join It still has (as GitHub spells her), one
# it no longer has.
override_data {
  target = data.github_team.this
  values = { id = "4242", members = ["Grace-H", "left-long-ago"] }
}

run "answers_become_usernames" {
  command = plan
  # Each guard at its limit (the default max_removals allows no removal).
  variables {
    min_members     = 2
    organization_id = "org-1"
  }
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [
      { id = "m1", email = "a@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "@Ada-L" }] },
      { id = "m2", email = "g@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = " grace-h " }] },
      { id = "m3", email = "a@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "ada-l" }] },
      { id = "m4", email = "x@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "" }] },
      { id = "m5", email = "y@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "grace hopper" }] },
      { id = "m6", email = "z@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q2", question = "T-shirt size", answer = "M" }] },
      { id = "m7", email = null, organization_id = null, custom_answers = null },
      { id = "m8", email = "w@example.org", organization_id = "org-1", custom_answers = [{ question_id = "q1", question = "GitHub username", answer = "a-very-long-name-that-github-would-refuse" }] },
    ] }
  }
  assert {
    condition     = output.planned == tolist(["ada-l", "grace-h"]) && output.to_add == tolist(["ada-l"]) && output.to_remove == tolist(["left-long-ago"])
    error_message = "planned ${jsonencode(output.planned)}, to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}: want the two usable usernames (no @, spaces or capitals), Grace-H kept, left-long-ago removed"
  }
  assert {
    condition     = output.members_without_username == tolist(["m4", "m5", "m6", "m7", "m8"])
    error_message = "members_without_username is ${jsonencode(output.members_without_username)}: want the empty, invalid, too long and missing answers"
  }
  assert {
    condition     = { for m in github_team_members.this.members : m.username => m.role } == { "ada-l" = "member", "grace-h" = "maintainer" } && github_team_members.this.team_slug == "members"
    error_message = "the team's members block is ${jsonencode(github_team_members.this.members)}: want ada-l a member and grace-h a maintainer, lower-cased as the resource keeps them"
  }
}
