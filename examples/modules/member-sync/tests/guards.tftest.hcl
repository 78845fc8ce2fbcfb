# Offline: the provider is mocked, so no API and no token are needed. Each
# run gives the read's records with override_data and the downstream
# group's members as current_members. Every downstream module's guards and
# address rules are these: the downstream modules' own tests cover only
# their mapping.

mock_provider "joinit" {}

variables {
  current_members = ["ana@example.org", "ben@example.org", "cy@example.org", "dee@example.org"]
  min_members     = 2
  max_removals    = 1
}

run "the_read_asks_the_status_and_every_field_once_in_one_order" {
  command = plan

  variables {
    fields = ["status", "email", "custom_answers"]
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
        { id = "m4", email = "dee@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = data.joinit_memberships.this.status == "active"
    error_message = "the read asks status ${jsonencode(data.joinit_memberships.this.status)}, want \"active\" (the default)"
  }
  assert {
    condition     = data.joinit_memberships.this.fields == tolist(["custom_answers", "email", "id", "organization_id", "status"])
    error_message = "the read asks fields ${jsonencode(data.joinit_memberships.this.fields)}: want each once, sorted, so that every call with these fields shares one read"
  }
}

run "addresses_compare_without_case_or_spaces_and_blanks_are_left_out" {
  command = plan

  # A removal keeps the group's spelling; an addition is lower-cased.
  variables {
    current_members = ["ANA@example.org ", "ben@example.org", "cy@example.org", "Dee@Example.org"]
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "Ana@Example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = " cy@example.org", organization_id = "org-1" },
        { id = "m4", email = "Eve@Example.org", organization_id = "org-1" },
        { id = "m5", email = "eve@example.org ", organization_id = "org-1" },
        { id = "m6", email = null, organization_id = "org-1" },
        { id = "m7", email = " ", organization_id = "org-1" },
        { id = "m8", email = "", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.members == tolist(["ana@example.org", "ben@example.org", "cy@example.org", "eve@example.org"])
    error_message = "members is ${jsonencode(output.members)}: want the four distinct addresses, lower-cased and trimmed"
  }
  assert {
    condition     = output.to_add == tolist(["eve@example.org"]) && output.to_remove == tolist(["Dee@Example.org"])
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}: want eve added once and Dee removed as the group spells her"
  }
  assert {
    condition     = output.planned == tolist(["ANA@example.org ", "ben@example.org", "cy@example.org", "eve@example.org"])
    error_message = "planned is ${jsonencode(output.planned)}: want the group's own spelling of those it holds, so its resource sees no change"
  }
  assert {
    condition     = output.memberships_without_address == tolist(["m6", "m7", "m8"]) && output.addresses["m4"] == "eve@example.org"
    error_message = "memberships_without_address ${jsonencode(output.memberships_without_address)}, addresses ${jsonencode(output.addresses)}"
  }
}

run "desired_members_keys_the_group_by_what_a_lookup_found" {
  command = plan

  # Ids, as a downstream's lookups found them for the addresses read: kept
  # as spelled, compared without case.
  variables {
    current_members = ["U01ANA", "u01ben", "U01GONE"]
    desired_members = ["U01ANA", "U01BEN", "U01EVE", " "]
  }

  override_data {
    target = data.joinit_memberships.this
    values = { records = [{ id = "m1", email = "ana@example.org", organization_id = "org-1" }] }
  }

  assert {
    condition     = output.planned == tolist(["U01ANA", "U01EVE", "u01ben"])
    error_message = "planned is ${jsonencode(output.planned)}: want the found ids, the group's spelling for those it holds"
  }
  assert {
    condition     = output.to_add == tolist(["U01EVE"]) && output.to_remove == tolist(["U01GONE"])
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}"
  }
}

run "a_membership_that_ends_is_removed" {
  command = plan

  variables {
    current_members = ["ana@example.org", "ben@example.org", "cy@example.org"]
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.to_remove == tolist(["cy@example.org"]) && length(output.to_add) == 0
    error_message = "to_remove ${jsonencode(output.to_remove)}, to_add ${jsonencode(output.to_add)}"
  }
}

# A member who changes their address: the service sends memberships.updated.
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  variables {
    max_removals = 0
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ANA@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
        { id = "m4", email = "Dee@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}: a change of case is the same member"
  }
}

run "a_new_address_is_one_removal_and_one_addition" {
  command = plan

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
        { id = "m4", email = "dee@new.example", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.to_add == tolist(["dee@new.example"]) && output.to_remove == tolist(["dee@example.org"])
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}"
  }
}

run "a_new_address_counts_as_a_removal" {
  command = plan

  variables {
    max_removals = 0
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
        { id = "m4", email = "dee@new.example", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.planned]
}

run "too_few_members_stop_the_plan" {
  command = plan

  # One member read and no removal: only min_members can stop it.
  variables {
    current_members = ["ana@example.org"]
  }

  override_data {
    target = data.joinit_memberships.this
    values = { records = [{ id = "m1", email = "ana@example.org", organization_id = "org-1" }] }
  }

  expect_failures = [output.planned]
}

run "spellings_of_one_address_are_one_member_for_min_members" {
  command = plan

  variables {
    current_members = ["ana@example.org"]
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "Ana@Example.org", organization_id = "org-1" },
        { id = "m3", email = " ANA@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.planned]
}

run "too_few_found_downstream_stop_the_plan" {
  command = plan

  # Four members read, one user found for them.
  variables {
    current_members = ["U01ANA"]
    desired_members = ["U01ANA"]
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.planned]
}

run "removals_exactly_at_max_removals_pass" {
  command = plan

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.to_remove == tolist(["dee@example.org"])
    error_message = "to_remove is ${jsonencode(output.to_remove)}"
  }
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.planned]
}

run "a_fraction_of_the_current_members_rounds_down" {
  command = plan

  # A third of four current members is 1.33, rounded down to one removal:
  # two is too many.
  variables {
    max_removals = 0.34
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.planned]
}

run "a_fraction_below_one_member_allows_no_removal" {
  command = plan

  # A tenth of four is 0.4: no removal at all.
  variables {
    max_removals = 0.1
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.planned]
}

run "a_fraction_allows_its_share" {
  command = plan

  # Half of four current members is two removals: allowed.
  variables {
    max_removals = 0.5
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.to_remove == tolist(["cy@example.org", "dee@example.org"])
    error_message = "to_remove is ${jsonencode(output.to_remove)}"
  }
}

run "the_organization_and_records_without_one_pass" {
  command = plan

  variables {
    organization_id = "org-1"
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = null },
        { id = "m3", email = "cy@example.org", organization_id = "org-1" },
        { id = "m4", email = "dee@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}"
  }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    organization_id = "org-1"
  }

  override_data {
    target = data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ana@example.org", organization_id = "org-1" },
        { id = "m2", email = "ben@example.org", organization_id = "org-2" },
        { id = "m3", email = "cy@example.org", organization_id = null },
        { id = "m4", email = "dee@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [data.joinit_memberships.this]
}
