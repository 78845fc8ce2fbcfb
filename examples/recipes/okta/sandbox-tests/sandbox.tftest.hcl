# Against a Join It API (the project's sandbox in its CI), read as the
# recipe reads it, with Okta mocked on its real schema. Run with
# `terraform test -test-directory=sandbox-tests`, with JOINIT_BASE_URL,
# JOINIT_ACCESS_TOKEN and TF_VAR_joinit_organization_id set.

# Every lookup finds the same one user: what matters here is what reaches
# the lookups.
mock_provider "okta" {
  mock_data "okta_users" {
    defaults = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }] }
  }
  mock_data "okta_group" {
    defaults = { users = [] }
  }
}

override_resource {
  target = okta_group_memberships.this
  values = { id = "00g-members" }
}

variables {
  okta_group_id = "00g-members"
}

run "every_active_address_is_searched_once" {
  command = plan

  assert {
    condition     = length(data.joinit_memberships.active.emails) > 0 && data.joinit_memberships.active.memberships == null
    error_message = "the lean read gave ${length(data.joinit_memberships.active.emails)} addresses: want the active members' addresses and no records"
  }
  assert {
    condition     = length(data.okta_users.members) == ceil(length(toset([for e in data.joinit_memberships.active.emails : lower(trimspace(e))])) / 50)
    error_message = "${length(data.okta_users.members)} lookups for ${length(data.joinit_memberships.active.emails)} addresses: want one per 50 distinct addresses"
  }
  assert {
    condition     = toset(flatten([for k, d in data.okta_users.members : [for s in d.search : s.value]])) == toset([for e in data.joinit_memberships.active.emails : lower(trimspace(e))])
    error_message = "the searches do not hold each active address once, in lower case"
  }
  assert {
    condition     = output.members == 1 && output.to_add == 1 && output.to_remove == 0
    error_message = "members ${output.members}, to_add ${output.to_add}, to_remove ${output.to_remove}: want the one user found added"
  }
}

run "no_user_found_stops_the_plan" {
  command = plan

  override_data {
    target = data.okta_users.members["0000"]
    values = { users = [] }
  }

  expect_failures = [okta_group_memberships.this]
}
