# Against a Join It API (the project's sandbox in its CI), read as the
# recipe reads it, with Slack mocked on its real schema. Run with
# `terraform test -test-directory=sandbox-tests`, with JOINIT_BASE_URL and
# JOINIT_ACCESS_TOKEN set and joinit_organization_id given.

# Every lookup finds the same one user: what matters here is what reaches
# the lookups.
mock_provider "slack" {
  mock_data "slack_user" {
    defaults = { id = "U-ADA" }
  }
}

override_data {
  target = data.slack_usergroup.this
  values = { id = "S0123ABCD", handle = "members", description = "Active members", channels = [], users = [] }
}

override_resource {
  target = slack_usergroup.this
  values = { id = "S0123ABCD" }
}

variables {
  usergroup_id = "S0123ABCD"
}

run "every_active_address_is_looked_up_once" {
  command = plan

  assert {
    condition     = length(data.joinit_memberships.active.emails) > 0 && data.joinit_memberships.active.memberships == null
    error_message = "the lean read gave ${length(data.joinit_memberships.active.emails)} addresses: want the active members' addresses and no records"
  }
  assert {
    condition     = toset(keys(data.slack_user.member)) == toset([for e in data.joinit_memberships.active.emails : lower(trimspace(e)) if trimspace(e) != ""])
    error_message = "the lookups are not each active address once, in lower case"
  }
  assert {
    condition     = output.member_count == 1 && output.to_add_count == 1 && output.to_remove_count == 0
    error_message = "member_count ${output.member_count}, to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}: want the one user found added"
  }
}

run "more_members_than_join_it_has_stops_the_plan_before_any_lookup" {
  command = plan

  variables {
    min_members = 100000
  }

  expect_failures = [data.joinit_memberships.active]
}
