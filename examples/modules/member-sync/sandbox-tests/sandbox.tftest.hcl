# Against a Join It API: the provider reads JOINIT_BASE_URL and
# JOINIT_ACCESS_TOKEN (the project's sandbox in its CI: `make sandbox`
# prints both). Run with `terraform test -test-directory=sandbox-tests`.

run "a_first_sync_adds_every_active_member" {
  command = plan

  variables {
    current_members = []
  }

  assert {
    condition     = length(output.to_add) > 0 && output.to_add == output.members && length(output.to_remove) == 0
    error_message = "A first sync should add every member (${length(output.members)}) and remove none; to_add has ${length(output.to_add)}, to_remove ${length(output.to_remove)}."
  }
}

run "a_member_gone_from_join_it_is_removed" {
  command = plan

  variables {
    current_members = ["Left.Long.Ago@example.org"]
    max_removals    = 1
  }

  assert {
    condition     = output.to_remove == tolist(["Left.Long.Ago@example.org"]) && length(output.to_add) == length(output.members)
    error_message = "to_remove is ${jsonencode(output.to_remove)} and to_add has ${length(output.to_add)} of ${length(output.members)}: want the address Join It does not hold removed, as spelled downstream, and every member added."
  }
}

run "a_filter_that_matches_nobody_stops_the_plan" {
  command = plan

  # Read nobody, so every current member would go.
  variables {
    current_members  = ["Left.Long.Ago@example.org"]
    membership_names = ["No Such Membership"]
  }

  expect_failures = [output.planned]
}
