# Offline, both providers mocked on their real schemas: this module's
# mapping (member-sync's tests cover case, blanks, duplicates, fractions).

mock_provider "joinit" {}
mock_provider "openstack" {}

variables {
  group_name      = "members"
  max_removals    = 1
  current_members = ["m2", "m3"] # the guard runs'
}

# The read of the guard runs, which plan member-sync itself.
override_data {
  target = data.joinit_memberships.this
  values = { records = [{ id = "m2", email = "grace@example.org", organization_id = "org-1" }] }
}

run "one_user_per_address_the_active_ones_in_the_group" {
  command = plan
  # Each guard at its limit (the default max_removals allows no removal);
  # the status as a code (email-change-tests/ read "active").
  variables {
    previous_members = ["m2", "m4"]
    min_members      = 2
    organization_id  = "org-1"
    status           = "100"
  }
  # Ada's user is kept by her oldest membership (m3, expired), enabled by m1.
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [
      { id = "m1", organization_id = "org-1", email = " Ada@Example.org ", status = 100, status_name = "active", created = "2024-03-01" },
      { id = "m2", organization_id = "org-1", email = "grace@example.org", status = 100, status_name = "active", created = "2023-05-01" },
      { id = "m3", organization_id = "org-1", email = "ada@example.org", status = 300, status_name = "expired", created = "2022-01-01" },
      { id = "m4", organization_id = "org-1", email = "left@example.org", status = 350, status_name = "cancelled", created = "2021-01-01" },
      { id = "m5", organization_id = "org-1", email = null, status = 100, status_name = "active", created = "2024-01-01" },
      { id = "m6", organization_id = null, email = "pending@example.org", status = 75, status_name = "pending", created = "2024-02-01" },
    ] }
  }
  assert {
    condition     = { for k, u in openstack_identity_user_v3.member : k => [u.name, u.enabled, u.extra.joinit_membership_id] } == { m3 = ["ada@example.org", true, "m3"], m2 = ["grace@example.org", true, "m2"], m4 = ["left@example.org", false, "m4"], m6 = ["pending@example.org", false, "m6"] }
    error_message = "users: ${jsonencode({ for k, u in openstack_identity_user_v3.member : k => [u.name, u.enabled, u.extra] })}: want one per address, kept by its oldest membership, enabled only while one is active"
  }
  assert {
    condition     = keys(openstack_identity_user_membership_v3.member) == ["m2", "m3"] && output.planned == tolist(["m2", "m3"]) && output.to_add == tolist(["m3"]) && output.to_remove == tolist(["m4"]) && output.memberships_without_address == tolist(["m5"])
    error_message = "group ${jsonencode(keys(openstack_identity_user_membership_v3.member))}, to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}, without address ${jsonencode(output.memberships_without_address)}"
  }
}

# terraform test expects failures of the root module only: these runs plan
# member-sync on the users above, so a guard weakened there fails.

run "too_few_users_stop_the_plan" {
  command = plan
  module { source = "../member-sync" }
  variables {
    desired_members = run.one_user_per_address_the_active_ones_in_the_group.planned
    min_members     = 3
  }
  expect_failures = [output.planned]
}

run "removals_one_over_max_removals_stop_the_plan" {
  command = plan
  module { source = "../member-sync" }
  variables {
    current_members = ["m2", "m3", "m4", "m9"]
    desired_members = run.one_user_per_address_the_active_ones_in_the_group.planned
  }
  expect_failures = [output.planned]
}

run "another_organization_stops_the_plan" {
  command = plan
  module { source = "../member-sync" }
  variables {
    desired_members = run.one_user_per_address_the_active_ones_in_the_group.planned
    organization_id = "org-1"
  }
  override_data {
    target = data.joinit_memberships.this
    values = { records = [{ id = "m2", email = "grace@example.org", organization_id = "org-2" }] }
  }
  expect_failures = [data.joinit_memberships.this]
}
