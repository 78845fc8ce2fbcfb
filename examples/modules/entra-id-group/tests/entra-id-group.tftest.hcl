# Offline, both providers mocked: this module's mapping. The guards'
# arithmetic is member-sync's tests; guard-tests/ shows each guard
# stopping this module's plan.

mock_provider "joinit" {}
mock_provider "azuread" {}

variables {
  group_object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
  max_removals    = 1
}

# The group's direct members now: Ada, and someone Join It no longer has.
override_data {
  target = data.azuread_group.this
  values = { object_id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", members = ["u-ada", "u-gone"] }
}

run "the_entra_users_of_the_members_hold_the_group" {
  command = plan
  # Each guard at its limit (the default max_removals allows no removal).
  variables {
    min_members     = 2
    organization_id = "org-1"
  }
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [
      { id = "m1", email = "Ada@Example.org", organization_id = "org-1" },
      { id = "m2", email = "ada@example.org ", organization_id = "org-1" },
      { id = "m3", email = " grace@example.org", organization_id = null },
      { id = "m4", email = "nobody@example.org", organization_id = "org-1" },
      { id = "m5", email = "o'neil@example.org", organization_id = "org-1" },
    ] }
  }
  # nobody@ and o'neil@ are no user's mail.
  override_data {
    target = data.azuread_users.members["0000"]
    values = { object_ids = ["u-ada", "u-grace"], users = [
      { object_id = "u-ada", mail = "ada@example.org" },
      { object_id = "u-grace", mail = "Grace@Example.org" },
    ] }
  }
  assert {
    condition     = keys(data.azuread_users.members) == ["0000"] && data.azuread_users.members["0000"].mails == tolist(["ada@example.org", "grace@example.org", "nobody@example.org", "o'neil@example.org"]) && data.azuread_users.members["0000"].ignore_missing
    error_message = "looked up ${jsonencode(data.azuread_users.members)}: want each address once as member-sync spells it, ignore_missing"
  }
  assert {
    condition     = data.azuread_group.this.object_id == var.group_object_id && keys(azuread_group_member.this) == ["u-ada", "u-grace"] && alltrue([for k, m in azuread_group_member.this : m.member_object_id == k && m.group_object_id == var.group_object_id])
    error_message = "the planned members are ${jsonencode(azuread_group_member.this)}: want one per user found, keyed by object ID, in the group by its object ID"
  }
  assert {
    condition     = output.to_add == tolist(["u-grace"]) && output.to_remove == tolist(["u-gone"]) && output.not_found == tolist(["nobody@example.org", "o'neil@example.org"])
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}, not_found ${jsonencode(output.not_found)}"
  }
}

run "a_hundred_addresses_a_lookup" {
  command = plan
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200] : { id = "m${i}", email = "member${i}@example.org", organization_id = "org-1" }] }
  }
  override_data {
    target = data.azuread_users.members
    values = { object_ids = ["u-ada"], users = [{ object_id = "u-ada", mail = "member0@example.org" }] }
  }
  assert {
    condition     = [for k, d in data.azuread_users.members : length(d.mails)] == [100, 100, 1] && length(toset(flatten(values(data.azuread_users.members)[*].mails))) == 201 && alltrue([for k, d in data.azuread_users.members : d.timeouts.read == "15m"])
    error_message = "the lookups hold ${jsonencode([for k, d in data.azuread_users.members : length(d.mails)])} addresses: want the 201 once each, 100 a lookup, 15m each"
  }
}
