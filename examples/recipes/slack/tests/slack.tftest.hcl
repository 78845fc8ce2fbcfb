# Offline: Join It and Slack both mocked, on their real schemas, so no API,
# no token and no workspace are needed. Each run plans (command = plan):
# the outputs count what the next apply would do; the guards stop the plan.
# The provider's repository runs these in make test.

mock_provider "joinit" {}
mock_provider "slack" {}

variables {
  usergroup_id           = "S0123ABCD"
  joinit_organization_id = "5f1b0c0ffee0000000000001"
  max_removals           = 1
}

# A mock cannot import: the import block needs this override, or the run
# stops with "Cannot import resources from mock providers". The imported
# state is then made from the configuration, so the plan shows "1 to
# import, 0 to change" whatever the group holds: what the apply would
# change is in the outputs (to_add_count, to_remove_count).
override_resource {
  target = slack_usergroup.this
  values = { id = "S0123ABCD" }
}

# The group now, for every run: Ada, and someone Join It no longer has.
override_data {
  target = data.slack_usergroup.this
  values = { id = "S0123ABCD", handle = "members", description = "Active members", channels = ["C0123"], users = ["U-ADA", "U-GONE"] }
}

override_data {
  target = data.slack_user.member["ada@x.org"]
  values = { id = "U-ADA" }
}
override_data {
  target = data.slack_user.member["grace@x.org"]
  values = { id = "U-GRACE" }
}
override_data {
  target = data.slack_user.member["gone@x.org"]
  values = { id = "U-GONE" }
}
override_data {
  target = data.slack_user.member["gone.new@x.org"]
  values = { id = "U-NEW" }
}

run "users_are_the_slack_users_of_the_active_members" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2", "m3", "m4"], emails = ["Ada@x.org", "ada@x.org ", " grace@x.org", ""] }
  }

  assert {
    condition     = keys(data.slack_user.member) == ["ada@x.org", "grace@x.org"]
    error_message = "looked up ${jsonencode(keys(data.slack_user.member))}: want each address once, lower case, no blank"
  }
  assert {
    condition     = output.member_count == 2 && output.to_add_count == 1 && output.to_remove_count == 1
    error_message = "member_count ${output.member_count}, to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}: want Ada kept, Grace added and the one Join It does not hold removed"
  }
  assert {
    condition     = slack_usergroup.this.users == toset(["U-ADA", "U-GRACE"])
    error_message = "the group's users would be ${jsonencode(slack_usergroup.this.users)}: want exactly the two found"
  }
  assert {
    # The data source's name is not computed, so a mock leaves it null
    # whatever override_data gives: the test sees it copied, not its value.
    condition     = slack_usergroup.this.name == data.slack_usergroup.this.name && slack_usergroup.this.handle == "members" && slack_usergroup.this.description == "Active members" && slack_usergroup.this.channels == toset(["C0123"])
    error_message = "the group's settings would change: every update sends name, handle, description and channels, so each is copied as Slack has it"
  }
}

# Two plans in a row: a membership that ends drops its user at the next.
run "before_a_membership_ends" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@x.org", "gone@x.org"] }
  }

  assert {
    condition     = output.to_remove_count == 0 && slack_usergroup.this.users == toset(["U-ADA", "U-GONE"])
    error_message = "to_remove_count ${output.to_remove_count}, users ${jsonencode(slack_usergroup.this.users)}: both are members"
  }
}

run "a_membership_that_ends_is_dropped_at_the_next_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@x.org"] }
  }

  assert {
    condition     = output.to_remove_count == 1 && slack_usergroup.this.users == toset(["U-ADA"])
    error_message = "to_remove_count ${output.to_remove_count}, users ${jsonencode(slack_usergroup.this.users)}: want U-GONE dropped"
  }
}

# A member who changes their address: the service sends memberships.updated.
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ADA@X.org", "gone@x.org"] }
  }

  assert {
    condition     = output.to_add_count == 0 && output.to_remove_count == 0 && keys(data.slack_user.member) == ["ada@x.org", "gone@x.org"]
    error_message = "to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}, looked up ${jsonencode(keys(data.slack_user.member))}: the lookup is in lower case, so nothing changes"
  }
}

run "a_new_address_moves_the_access_as_one_removal_and_one_addition" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@x.org", "gone.new@x.org"] }
  }

  assert {
    condition     = output.to_add_count == 1 && output.to_remove_count == 1 && slack_usergroup.this.users == toset(["U-ADA", "U-NEW"])
    error_message = "to_add_count ${output.to_add_count}, to_remove_count ${output.to_remove_count}, users ${jsonencode(slack_usergroup.this.users)}: want the old user out and the new one in"
  }
}

run "a_new_address_counts_as_a_removal" {
  command = plan

  variables {
    max_removals = 0
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ada@x.org", "gone.new@x.org"] }
  }

  expect_failures = [slack_usergroup.this]
}

run "spellings_of_one_address_are_one_member_for_min_members" {
  command = plan

  variables {
    min_members = 2
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2", "m3"], emails = ["ada@x.org", "Ada@x.org", " ADA@x.org"] }
  }

  expect_failures = [data.joinit_memberships.active]
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  override_data {
    target = data.slack_usergroup.this
    values = { id = "S0123ABCD", handle = "members", description = "Active members", channels = ["C0123"], users = ["U-ADA", "U-GONE", "U-GONE-TOO"] }
  }
  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@x.org"] }
  }

  expect_failures = [slack_usergroup.this]
}

run "a_fraction_of_the_group_rounds_down" {
  command = plan

  # A tenth of the group's two users is no removal at all.
  variables {
    max_removals = 0.1
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ada@x.org"] }
  }

  expect_failures = [slack_usergroup.this]
}
