# Offline, both providers mocked: this module's mapping. The guards'
# arithmetic is member-sync's tests; guard-tests/ shows each guard
# stopping this module's plan.

mock_provider "joinit" {}
mock_provider "okta" {}

variables {
  group_id     = "00g-members"
  max_removals = 1
}

# The group now: Ada, and someone Join It no longer has.
override_data {
  target = data.okta_group.this
  values = { id = "00g-members", users = ["00u-ada", "00u-gone"] }
}

run "the_okta_users_of_the_members_hold_the_group" {
  command = plan
  # Each guard at its limit (the default max_removals allows no removal).
  variables {
    min_members     = 3
    organization_id = "org-1"
  }
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [
      { id = "m1", email = "Ada@Example.org", organization_id = "org-1" },
      { id = "m2", email = "ada@example.org ", organization_id = "org-1" },
      { id = "m3", email = "grace@example.org", organization_id = null },
      { id = "m4", email = "lin@example.org", organization_id = "org-1" },
      { id = "m5", email = "nobody@example.org", organization_id = "org-1" },
      { id = "m6", email = "o\"neil@example.org", organization_id = "org-1" },
    ] }
  }
  # Ada has two users; Lin's only one is deprovisioned.
  override_data {
    target = data.okta_users.members["0000"]
    values = { users = [
      { id = "00u-ada", email = "ada@example.org", status = "ACTIVE" },
      { id = "00u-ada-2", email = "ADA@example.org", status = "PROVISIONED" },
      { id = "00u-grace", email = "Grace@example.org", status = "ACTIVE" },
      { id = "00u-grace-old", email = "grace@example.org", status = "DEPROVISIONED" },
      { id = "00u-lin", email = "lin@example.org", status = "DEPROVISIONED" },
    ] }
  }
  assert {
    condition     = keys(data.okta_users.members) == ["0000"] && toset(data.okta_users.members["0000"].search[*].value) == toset(["ada@example.org", "grace@example.org", "lin@example.org", "nobody@example.org"]) && data.okta_users.members["0000"].compound_search_operator == "or" && alltrue([for s in data.okta_users.members["0000"].search : s.name == "profile.email" && s.comparison == "eq"])
    error_message = "searched ${jsonencode(data.okta_users.members)}: want profile.email eq each address once as member-sync spells it (not o\"neil@), joined by or"
  }
  assert {
    condition     = data.okta_group.this.include_users && okta_group_memberships.this.users == toset(["00u-ada", "00u-ada-2", "00u-grace"]) && okta_group_memberships.this.track_all_users && okta_group_memberships.this.group_id == "00g-members"
    error_message = "the group would hold ${jsonencode(okta_group_memberships.this)}: want Ada's two users and Grace's active one, track_all_users"
  }
  assert {
    condition     = output.to_add == tolist(["00u-ada-2", "00u-grace"]) && output.to_remove == tolist(["00u-gone"]) && output.not_found == tolist(["lin@example.org", "nobody@example.org", "o\"neil@example.org"])
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}, not_found ${jsonencode(output.not_found)}"
  }
}

run "fifty_addresses_a_search" {
  command = plan
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = { records = [for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100] : { id = "m${i}", email = "member${i}@example.org", organization_id = "org-1" }] }
  }
  override_data {
    target = data.okta_users.members
    values = { users = [{ id = "00u-ada", email = "member0@example.org", status = "ACTIVE" }] }
  }
  assert {
    condition     = [for k, d in data.okta_users.members : length(d.search)] == [50, 50, 1] && length(toset(flatten([for k, d in data.okta_users.members : d.search[*].value]))) == 101
    error_message = "the searches hold ${jsonencode([for k, d in data.okta_users.members : length(d.search)])} clauses: want the 101 addresses once each, 50 a search"
  }
}
