# A Google Workspace group whose members are the Join It members, by e-mail
# address, beside the owners and managers listed in keep_members.
# googleworkspace_group_members holds the whole member list: a member whose
# membership ends, and anyone not listed, owners included, is removed at the
# next apply. member-sync reads Join It, compares the addresses and holds
# the guards; this module gives it the Join It part of the group and adds
# keep_members to what it plans.

# The group's members now, as Google lists them (members.list, 200 a page).
data "googleworkspace_group_members" "this" {
  group_id = var.group_email
}

locals {
  keep = keys(var.keep_members)

  # The Join It part of the group: every member Google lists but those of
  # keep_members, each as Google spells them.
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

  current_members = local.current
  # keep_members are not the sync's: they count neither toward min_members
  # nor as removals.
  desired_members = [for a in local.in_domains : a if !contains(local.keep, a)]

  min_members     = var.min_members
  max_removals    = var.max_removals
  organization_id = var.organization_id
}

resource "googleworkspace_group_members" "this" {
  group_id = var.group_email

  # What member-sync plans, as Google spells those it holds already: the
  # resource compares addresses exactly, and another spelling of a member
  # would be a removal and an insert of the same person.
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
