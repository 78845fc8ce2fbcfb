# Offline: Join It and Entra ID both mocked, on their real schemas, so no
# API, no token and no tenant are needed. Each run plans (command = plan):
# the outputs count what the next apply would do; the guards stop the plan.
# The provider's repository runs these in make test.

mock_provider "joinit" {}
mock_provider "azuread" {}

variables {
  group_object_id        = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
  joinit_organization_id = "5f1b0c0ffee0000000000001"
  max_removals           = 1
}

# A mock cannot import: the import blocks (one per user the group has
# already) need this override, or the run stops with "Cannot import
# resources from mock providers". The planned members are the users found:
# those the group has are imported, the others added; removals are in
# to_remove_count.
override_resource {
  target = azuread_group_member.this
  values = { id = "/groups/3f2504e0-4f89-11d3-9a0c-0305e82c3301/members/u-any" }
}

# The group's members now, for every run: Ada, and someone Join It no
# longer has.
override_data {
  target = data.azuread_group.this
  values = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = ["u-ada", "u-gone"] }
}

run "members_are_the_entra_users_of_the_active_members" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2", "m3", "m4", "m5"], emails = ["Ada@example.org", "ada@example.org", " grace@example.org ", "nobody@example.org", " "] }
  }
  override_data {
    target = data.azuread_users.members
    # Two spellings of Ada's address find her twice; nobody@ is no user's mail.
    values = {
      object_ids = ["u-ada", "u-ada", "u-grace"]
      users = [
        { object_id = "u-ada", mail = "ada@example.org" },
        { object_id = "u-ada", mail = "ada@example.org" },
        { object_id = "u-grace", mail = "Grace@example.org" },
      ]
    }
  }

  assert {
    condition     = output.member_count == 2 && output.to_add_count == 1 && output.to_remove_count == 1
    error_message = "member_count ${output.member_count}, to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}: want Ada kept, Grace added and the one Join It does not hold removed"
  }
  assert {
    condition     = output.addresses_not_found_count == 1
    error_message = "addresses_not_found_count is ${output.addresses_not_found_count}: want nobody@ alone (found mails compare without case)"
  }
  assert {
    condition     = toset(keys(azuread_group_member.this)) == toset(["u-ada", "u-grace"]) && alltrue([for m in azuread_group_member.this : m.group_object_id == "3f2504e0-4f89-11d3-9a0c-0305e82c3301"])
    error_message = "the planned members are ${jsonencode(keys(azuread_group_member.this))}: want one per user found, in the group by its object_id"
  }
}

# Two plans in a row: a membership that ends drops its user at the next.
run "before_a_membership_ends" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@example.org", "gone@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada", "u-gone"], users = [{ object_id = "u-ada", mail = "ada@example.org" }, { object_id = "u-gone", mail = "gone@example.org" }] }
  }

  assert {
    condition     = output.to_remove_count == 0 && toset(keys(azuread_group_member.this)) == toset(["u-ada", "u-gone"])
    error_message = "to_remove_count ${output.to_remove_count}, members ${jsonencode(keys(azuread_group_member.this))}: both are members"
  }
}

run "a_membership_that_ends_is_dropped_at_the_next_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "ada@example.org" }] }
  }

  assert {
    condition     = output.to_remove_count == 1 && keys(azuread_group_member.this) == ["u-ada"]
    error_message = "to_remove_count ${output.to_remove_count}, members ${jsonencode(keys(azuread_group_member.this))}: want u-gone dropped"
  }
}

# A member who changes their address: the service sends memberships.updated.
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ADA@Example.org", "gone@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada", "u-gone"], users = [{ object_id = "u-ada", mail = "ada@example.org" }, { object_id = "u-gone", mail = "gone@example.org" }] }
  }

  assert {
    condition     = output.to_add_count == 0 && output.to_remove_count == 0 && output.addresses_not_found_count == 0
    error_message = "to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}, addresses_not_found_count ${output.addresses_not_found_count}: members are keyed by object ID, so nothing changes"
  }
}

run "a_new_address_moves_the_access_as_one_removal_and_one_addition" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@example.org", "gone.new@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada", "u-new"], users = [{ object_id = "u-ada", mail = "ada@example.org" }, { object_id = "u-new", mail = "gone.new@example.org" }] }
  }

  assert {
    condition     = output.to_add_count == 1 && output.to_remove_count == 1 && toset(keys(azuread_group_member.this)) == toset(["u-ada", "u-new"])
    error_message = "to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}, members ${jsonencode(keys(azuread_group_member.this))}: want the old user out and the new one in"
  }
}

run "a_new_address_counts_as_a_removal" {
  command = plan

  variables {
    max_removals = 0
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@example.org", "gone.new@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada", "u-new"], users = [{ object_id = "u-ada", mail = "ada@example.org" }, { object_id = "u-new", mail = "gone.new@example.org" }] }
  }

  expect_failures = [output.to_remove_count]
}

run "too_few_addresses_stop_the_plan_before_the_lookup" {
  command = plan

  variables {
    min_members = 2
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@example.org", " "] }
  }

  expect_failures = [data.azuread_users.members]
}

run "too_few_users_found_stop_the_plan" {
  command = plan

  variables {
    min_members = 2
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@example.org", "nobody@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "ada@example.org" }] }
  }

  expect_failures = [data.azuread_users.members]
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  override_data {
    target = data.azuread_group.this
    values = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = ["u-ada", "u-gone", "u-gone-too"] }
  }
  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "ada@example.org" }] }
  }

  expect_failures = [output.to_remove_count]
}

run "a_fraction_of_the_group_rounds_down" {
  command = plan

  # A tenth of the group's two members is no removal at all.
  variables {
    max_removals = 0.1
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@example.org"] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "ada@example.org" }] }
  }

  expect_failures = [output.to_remove_count]
}
