# Offline: Join It and Google Workspace both mocked, on their real schemas,
# so no API, no token and no Workspace are needed. Each run plans
# (command = plan): the outputs count what the next apply would do; the
# guards stop the plan. The provider's repository runs these in make test.

mock_provider "joinit" {}
mock_provider "googleworkspace" {}

variables {
  group_email  = "members@x.org"
  max_removals = 1
}

# A mock cannot import: the import block needs this override, or the run
# stops with "Cannot import resources from mock providers". The imported
# state is then made from the configuration, so the plan shows "1 to
# import, 0 to change" whatever the group holds: what the apply would
# change is in the outputs (to_add, to_remove).
override_resource {
  target = googleworkspace_group_members.this
  values = { id = "groups/members@x.org" }
}

# The group's members now, for every run: Ann as Google spells her, and
# someone Join It no longer has.
override_data {
  target = data.googleworkspace_group_members.current
  values = { members = [{ email = "Ann@x.org", role = "MEMBER", type = "USER" }, { email = "gone@x.org", role = "MEMBER", type = "USER" }] }
}

run "members_are_the_active_addresses_and_keep_members" {
  command = plan

  variables {
    keep_members = { "Owner@x.org" = "OWNER" }
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2", "m3", "m4", "m5"], emails = ["ANN@x.org", "ann@x.org ", " grace@x.org", "eve@elsewhere.net", ""] }
  }

  assert {
    condition     = output.members == 4 && output.to_add == 3 && output.to_remove == 1
    error_message = "members ${output.members}, to_add ${output.to_add}, to_remove ${output.to_remove}: want Ann kept, Grace, Eve and the owner added, gone@ removed"
  }
  assert {
    condition     = { for m in googleworkspace_group_members.this.members : m.email => m.role } == { "Ann@x.org" = "MEMBER", "grace@x.org" = "MEMBER", "eve@elsewhere.net" = "MEMBER", "owner@x.org" = "OWNER" }
    error_message = "the planned members are ${jsonencode([for m in googleworkspace_group_members.this.members : [m.email, m.role]])}: want Ann as Google spells her, one entry per person, the owner an OWNER"
  }
}

run "member_domains_keeps_only_their_addresses" {
  command = plan

  variables {
    member_domains = ["X.org"]
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ann@x.org", "eve@elsewhere.net"] }
  }

  assert {
    condition     = [for m in googleworkspace_group_members.this.members : m.email] == ["Ann@x.org"]
    error_message = "the planned members are ${jsonencode([for m in googleworkspace_group_members.this.members : m.email])}: want only the x.org address"
  }
}

# Two plans in a row: a membership that ends drops its address at the next.
run "before_a_membership_ends" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ann@x.org", "gone@x.org"] }
  }

  assert {
    condition     = output.to_add == 0 && output.to_remove == 0
    error_message = "to_add ${output.to_add}, to_remove ${output.to_remove}: both are members"
  }
}

run "a_membership_that_ends_is_dropped_at_the_next_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ann@x.org"] }
  }

  assert {
    condition     = output.to_remove == 1 && [for m in googleworkspace_group_members.this.members : m.email] == ["Ann@x.org"]
    error_message = "to_remove ${output.to_remove}, members ${jsonencode([for m in googleworkspace_group_members.this.members : m.email])}: want gone@ dropped"
  }
}

# A member who changes their address: the service sends memberships.updated.
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ann@X.ORG", "gone@x.org"] }
  }

  assert {
    condition     = output.to_add == 0 && output.to_remove == 0 && toset([for m in googleworkspace_group_members.this.members : m.email]) == toset(["Ann@x.org", "gone@x.org"])
    error_message = "to_add ${output.to_add}, to_remove ${output.to_remove}, members ${jsonencode([for m in googleworkspace_group_members.this.members : m.email])}: each member named as Google spells them, nothing changes"
  }
}

run "a_new_address_moves_the_access_as_one_removal_and_one_addition" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ann@x.org", "gone.new@x.org"] }
  }

  assert {
    condition     = output.to_add == 1 && output.to_remove == 1 && toset([for m in googleworkspace_group_members.this.members : m.email]) == toset(["Ann@x.org", "gone.new@x.org"])
    error_message = "to_add ${output.to_add}, to_remove ${output.to_remove}, members ${jsonencode([for m in googleworkspace_group_members.this.members : m.email])}: want the old address out and the new one in"
  }
}

run "a_new_address_counts_as_a_removal" {
  command = plan

  variables {
    max_removals = 0
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ann@x.org", "gone.new@x.org"] }
  }

  expect_failures = [googleworkspace_group_members.this]
}

run "too_few_addresses_stop_the_plan" {
  command = plan

  # keep_members do not count: an empty read would remove everyone else.
  variables {
    min_members    = 2
    keep_members   = { "owner@x.org" = "OWNER" }
    member_domains = ["x.org"]
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2"], emails = ["ann@x.org", "eve@elsewhere.net"] }
  }
  override_data {
    target = data.googleworkspace_group_members.current
    values = { members = [{ email = "Ann@x.org", role = "MEMBER", type = "USER" }] }
  }

  # eve@ is not of member_domains.
  expect_failures = [googleworkspace_group_members.this]
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan

  override_data {
    target = data.googleworkspace_group_members.current
    values = { members = [{ email = "Ann@x.org", role = "MEMBER", type = "USER" }, { email = "gone@x.org", role = "MEMBER", type = "USER" }, { email = "gone-too@x.org", role = "MEMBER", type = "USER" }] }
  }
  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ann@x.org"] }
  }

  expect_failures = [googleworkspace_group_members.this]
}

run "a_fraction_of_the_group_rounds_down" {
  command = plan

  # A tenth of the group's two members is no removal at all.
  variables {
    max_removals = 0.1
  }

  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1"], emails = ["ann@x.org"] }
  }

  expect_failures = [googleworkspace_group_members.this]
}
