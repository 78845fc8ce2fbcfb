# Offline, both providers mocked on their real schemas: this module's
# mapping (member-sync's tests cover case, blanks, duplicates, fractions;
# guard-tests/, each guard stopping this module's plan).

mock_provider "joinit" {}
mock_provider "openstack" {}

variables {
  group_name   = "members"
  max_removals = 1
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
