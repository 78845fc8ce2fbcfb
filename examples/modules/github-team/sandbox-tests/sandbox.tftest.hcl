# Against a Join It API (the project's sandbox in its CI: its members answer
# "GitHub username" in every spelling members use), with GitHub mocked on
# its real schema. Run with `terraform test -test-directory=sandbox-tests`.
# What the offline tests cannot show: the answers members really give
# become usernames GitHub accepts. (The guards are member-sync's, shown in
# tests/.)

mock_provider "github" {}

override_data {
  target = data.github_team.this
  values = { id = "4242", members = ["left-long-ago"] }
}

run "a_first_sync_adds_every_member_with_a_username" {
  command = plan

  variables {
    team_slug    = "members"
    max_removals = 1
  }

  assert {
    condition     = length(output.planned) > 0 && output.to_add == output.planned && output.to_remove == tolist(["left-long-ago"])
    error_message = "members ${length(output.planned)}, to_add ${length(output.to_add)}, to_remove ${jsonencode(output.to_remove)}: want every username added and the one Join It does not hold removed"
  }
  assert {
    condition     = alltrue([for u in output.planned : can(regex("^[a-z0-9]+(-[a-z0-9]+)*$", u))])
    error_message = "a username that GitHub would refuse: ${jsonencode(output.planned)}"
  }
  assert {
    condition     = length(output.members_without_username) > 0
    error_message = "the sandbox has members without a usable answer; none was listed"
  }
}
