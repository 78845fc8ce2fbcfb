# Offline: both providers mocked, Google on SamuZad/googleworkspace 0.11.5's
# schema. Only this module's mapping: case, blanks, duplicates and the
# guards are member-sync's tests (guard-tests/ shows each guard stopping
# this module's plan).

mock_provider "joinit" {}
mock_provider "googleworkspace" {}

variables {
  group_email  = "members@x.org"
  keep_members = { "owner@x.org" = "OWNER" }
  max_removals = 1
}

# The group now: Ann as Google spells her, someone Join It no longer has,
# and the owner.
override_data {
  target = data.googleworkspace_group_members.this
  values = {
    members = [
      { email = "Ann@x.org", role = "MEMBER", type = "USER" },
      { email = "gone@x.org", role = "MEMBER", type = "USER" },
      { email = "owner@x.org", role = "OWNER", type = "USER" },
    ]
  }
}

run "the_group_holds_the_members_read_as_google_spells_them_and_keep_members" {
  command = plan

  # Grace, read from Join It, is also a manager in keep_members.
  variables {
    keep_members = { "owner@x.org" = "OWNER", "grace@x.org" = "MANAGER" }
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ann@x.org", organization_id = "org-1" },
        { id = "m2", email = "grace@x.org", organization_id = "org-1" },
        { id = "m3", email = "eve@elsewhere.net", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = { for m in googleworkspace_group_members.this.members : m.email => m.role } == { "Ann@x.org" = "MEMBER", "eve@elsewhere.net" = "MEMBER", "grace@x.org" = "MANAGER", "owner@x.org" = "OWNER" }
    error_message = "the group would hold ${jsonencode({ for m in googleworkspace_group_members.this.members : m.email => m.role })}: want Ann as Google spells her, Eve, Grace once as a manager, the owner"
  }
  assert {
    condition     = module.sync.to_remove == tolist(["gone@x.org"]) && output.to_add == tolist(["eve@elsewhere.net"]) && output.planned == tolist(["Ann@x.org", "eve@elsewhere.net"]) && length(output.not_found) == 0
    error_message = "to_remove ${jsonencode(module.sync.to_remove)}, to_add ${jsonencode(output.to_add)}, planned ${jsonencode(output.planned)}, not_found ${jsonencode(output.not_found)}: member-sync must see neither side's keep_members"
  }
}

run "member_domains_keeps_only_their_addresses" {
  command = plan

  variables {
    member_domains = ["x.org"]
  }

  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ann@x.org", organization_id = "org-1" },
        { id = "m2", email = "eve@elsewhere.net", organization_id = "org-1" },
        { id = "m3", email = "mallory@evil-x.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = toset([for m in googleworkspace_group_members.this.members : m.email]) == toset(["Ann@x.org", "owner@x.org"]) && output.not_found == tolist(["eve@elsewhere.net", "mallory@evil-x.org"])
    error_message = "the group would hold ${jsonencode([for m in googleworkspace_group_members.this.members : m.email])}, not_found ${jsonencode(output.not_found)}: want only the x.org address and the owner, the others not found"
  }
}
