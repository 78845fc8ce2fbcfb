# Against a Join It API (the project's sandbox in its CI), read as the
# recipe reads it, with Google Workspace mocked on its real schema. Run with
# `terraform test -test-directory=sandbox-tests`, with JOINIT_BASE_URL,
# JOINIT_ACCESS_TOKEN and TF_VAR_joinit_organization_id set.

mock_provider "googleworkspace" {
  mock_data "googleworkspace_group_members" {
    defaults = { members = [] }
  }
}

override_resource {
  target = googleworkspace_group_members.this
  values = { id = "groups/members@x.org" }
}

variables {
  group_email = "members@x.org"
}

run "every_active_address_becomes_a_member_once" {
  command = plan

  assert {
    condition     = length(data.joinit_memberships.active.emails) > 0 && data.joinit_memberships.active.memberships == null
    error_message = "the lean read gave ${length(data.joinit_memberships.active.emails)} addresses: want the active members' addresses and no records"
  }
  assert {
    condition     = toset([for m in googleworkspace_group_members.this.members : m.email]) == toset([for e in data.joinit_memberships.active.emails : lower(trimspace(e)) if trimspace(e) != ""])
    error_message = "the planned members are not each active address once, in lower case"
  }
  assert {
    condition     = output.to_add == output.members && output.to_remove == 0
    error_message = "members ${output.members}, to_add ${output.to_add}, to_remove ${output.to_remove}: into an empty group, every member is added"
  }
}

run "a_domain_no_member_has_stops_the_plan" {
  command = plan

  variables {
    member_domains = ["nobody.invalid"]
  }

  expect_failures = [googleworkspace_group_members.this]
}
