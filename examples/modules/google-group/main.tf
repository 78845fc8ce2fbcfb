# A Google Workspace group holding the Join It members, by address, beside
# keep_members; anyone else is removed at the next apply. member-sync reads,
# compares and guards the group's Join It part; keep_members are added.

# The group's members now, as Google lists them (members.list, 200 a page).
data "googleworkspace_group_members" "this" {
  group_id = var.group_email
}

locals {
  keep = keys(var.keep_members)

  # The group's Join It part: its members but keep_members.
  current = [for m in data.googleworkspace_group_members.this.members : m.email if !contains(local.keep, m.email)]

  # The addresses read, of member_domains (every address when it is empty).
  in_domains = [
    for a in module.sync.members : a
    if length(var.member_domains) == 0 || anytrue([for d in var.member_domains : endswith(a, "@${d}")])
  ]
}

module "sync" {
  source = "../member-sync"

  status           = var.status
  membership_names = var.membership_names

  # keep_members count neither toward min_members nor as removals.
  current_members = local.current
  desired_members = [for a in local.in_domains : a if !contains(local.keep, a)]

  min_members     = var.min_members
  max_removals    = var.max_removals
  organization_id = var.organization_id
}

resource "googleworkspace_group_members" "this" {
  group_id = var.group_email

  # As Google spells those it holds: the resource compares exactly, and
  # another spelling would remove and insert the same person.
  dynamic "members" {
    for_each = toset(module.sync.planned)
    content {
      email = members.value
      role  = "MEMBER"
    }
  }

  dynamic "members" {
    for_each = var.keep_members
    content {
      email = members.key
      role  = members.value
    }
  }
}
