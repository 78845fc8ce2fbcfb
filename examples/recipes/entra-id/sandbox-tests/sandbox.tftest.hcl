# Against a Join It API (the project's sandbox in its CI), read as the
# recipe reads it, with Entra ID mocked on its real schema. Run with
# `terraform test -test-directory=sandbox-tests`, with JOINIT_BASE_URL and
# JOINIT_ACCESS_TOKEN set and joinit_organization_id given.

# The lookup finds one user: what matters here is what reaches it.
mock_provider "azuread" {
  mock_data "azuread_users" {
    defaults = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "ada@example.org" }] }
  }
  mock_data "azuread_group" {
    defaults = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = [] }
  }
}

variables {
  group_object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
}

run "every_active_spelling_is_looked_up_once" {
  command = plan

  assert {
    condition     = length(data.joinit_memberships.active.emails) > 0 && data.joinit_memberships.active.memberships == null
    error_message = "the lean read gave ${length(data.joinit_memberships.active.emails)} addresses: want the active members' addresses and no records"
  }
  assert {
    condition     = output.addresses_not_found_count == length(distinct([for e in data.joinit_memberships.active.emails : trimspace(e) if trimspace(e) != "" && lower(trimspace(e)) != "ada@example.org"]))
    error_message = "addresses_not_found_count is ${output.addresses_not_found_count}: want every distinct active address but the one found"
  }
  assert {
    condition     = output.member_count == 1 && output.to_add_count == 1 && output.to_remove_count == 0
    error_message = "member_count ${output.member_count}, to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}: want the one user found added"
  }
}

run "no_user_found_stops_the_plan" {
  command = plan

  override_data {
    target = data.azuread_users.members
    values = { object_ids = [], users = [] }
  }

  expect_failures = [data.azuread_users.members]
}
