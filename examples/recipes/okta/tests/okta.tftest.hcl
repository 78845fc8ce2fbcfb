# Offline: Join It and Okta both mocked, on their real schemas, so no API,
# no token and no Okta org are needed. Each run plans (command = plan): the
# outputs count what the next apply would do; the guards stop the plan.
# The provider's repository runs these in make test.

mock_provider "joinit" {}
mock_provider "okta" {}

variables {
  okta_group_id = "00g-members"
  max_removals  = 1
}

# A mock cannot import: the import block needs this override, or the run
# stops with "Cannot import resources from mock providers". The imported
# state is then made from the configuration, so the plan shows "1 to
# import, 0 to change" whatever the group holds: what the apply would
# change is in the outputs (to_add, to_remove).
override_resource {
  target = okta_group_memberships.this
  values = { id = "00g-members" }
}

# The group's members now, for every run: Ada, and someone Join It no
# longer has.
override_data {
  target = data.okta_group.this
  values = { id = "00g-members", users = ["00u-ada", "00u-gone"] }
}

run "members_are_the_okta_users_of_the_active_members" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2", "m3", "m4", "m5"], emails = ["Ada@Example.org", "ada@example.org ", "grace@example.org", "nobody@example.org", "o\"neil@example.org"] }
  }
  override_data {
    target = data.okta_users.members["0000"]
    values = {
      users = [
        { id = "00u-ada", email = "ada@example.org", status = "ACTIVE" },
        { id = "00u-grace", email = "Grace@example.org", status = "ACTIVE" },
        { id = "00u-grace-old", email = "grace@example.org", status = "DEPROVISIONED" },
      ]
    }
  }

  assert {
    condition     = output.members == 2 && output.to_add == 1 && output.to_remove == 1
    error_message = "members ${output.members}, to_add ${output.to_add}, to_remove ${output.to_remove}: want Ada kept, Grace added (not her deprovisioned user) and the one Join It does not hold removed"
  }
  assert {
    condition     = output.addresses_not_found == 2
    error_message = "addresses_not_found is ${output.addresses_not_found}: want nobody@ and the address the search cannot hold"
  }
  assert {
    condition     = toset([for s in data.okta_users.members["0000"].search : s.value]) == toset(["ada@example.org", "grace@example.org", "nobody@example.org"])
    error_message = "searched ${jsonencode(data.okta_users.members["0000"].search)}: want each address once, lower case, the unsearchable one left out"
  }
  assert {
    condition     = okta_group_memberships.this.users == toset(["00u-ada", "00u-grace"]) && okta_group_memberships.this.track_all_users
    error_message = "the group's users would be ${jsonencode(okta_group_memberships.this.users)}: want exactly the two found, with track_all_users"
  }
  assert {
    condition     = data.okta_users.members["0000"].compound_search_operator == "or"
    error_message = "the clauses are joined by ${data.okta_users.members["0000"].compound_search_operator}: only \"or\" finds anyone"
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
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }, { id = "00u-gone", email = "gone@example.org", status = "ACTIVE" }] }
  }

  assert {
    condition     = output.to_remove == 0 && okta_group_memberships.this.users == toset(["00u-ada", "00u-gone"])
    error_message = "to_remove ${output.to_remove}, users ${jsonencode(okta_group_memberships.this.users)}: both are members"
  }
}

run "a_membership_that_ends_is_dropped_at_the_next_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@example.org"] }
  }
  override_data {
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }] }
  }

  assert {
    condition     = output.to_remove == 1 && okta_group_memberships.this.users == toset(["00u-ada"])
    error_message = "to_remove ${output.to_remove}, users ${jsonencode(okta_group_memberships.this.users)}: want 00u-gone dropped"
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
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }, { id = "00u-gone", email = "gone@example.org", status = "ACTIVE" }] }
  }

  assert {
    condition     = output.to_add == 0 && output.to_remove == 0 && output.addresses_not_found == 0
    error_message = "to_add ${output.to_add}, to_remove ${output.to_remove}, addresses_not_found ${output.addresses_not_found}: Okta's search ignores case, so nothing changes"
  }
}

run "a_new_address_moves_the_access_as_one_removal_and_one_addition" {
  command = plan

  variables {
    max_removals = 1
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@example.org", "gone.new@example.org"] }
  }
  override_data {
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }, { id = "00u-new", email = "gone.new@example.org", status = "ACTIVE" }] }
  }

  assert {
    condition     = output.to_add == 1 && output.to_remove == 1 && okta_group_memberships.this.users == toset(["00u-ada", "00u-new"])
    error_message = "to_add ${output.to_add}, to_remove ${output.to_remove}, users ${jsonencode(okta_group_memberships.this.users)}: want the old user out and the new one in"
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
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }, { id = "00u-new", email = "gone.new@example.org", status = "ACTIVE" }] }
  }

  expect_failures = [okta_group_memberships.this]
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
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }] }
  }

  expect_failures = [okta_group_memberships.this]
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  variables {
    max_removals = 1
  }

  override_data {
    target = data.okta_group.this
    values = { id = "00g-members", users = ["00u-ada", "00u-gone", "00u-gone-too"] }
  }
  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@example.org"] }
  }
  override_data {
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }] }
  }

  expect_failures = [okta_group_memberships.this]
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
    target = data.okta_users.members["0000"]
    values = { users = [{ id = "00u-ada", email = "ada@example.org", status = "ACTIVE" }] }
  }

  expect_failures = [okta_group_memberships.this]
}
