# A Keystone group of the active Join It members, and a user per address
# (disabled when its members leave; renamed when one changes address). The
# read and the guards are member-sync's.

module "sync" {
  source = "../member-sync"

  # Every status: a member who left keeps their (disabled) user.
  status           = null
  membership_names = var.membership_names
  fields           = ["created", "status", "status_name"]

  # By user key: the OpenStack provider lists no group's users.
  current_members = coalesce(var.previous_members, toset([]))
  desired_members = [for key, u in local.users : key if u.enabled]

  min_members     = var.min_members
  max_removals    = var.max_removals
  organization_id = var.organization_id
}

locals {
  records = { for r in module.sync.records : r.id => r }

  # The memberships with the status asked, a code or a name, as given.
  active = toset([
    for r in module.sync.records : r.id
    if contains([tostring(r.status), lower(coalesce(r.status_name, "-"))], lower(var.status))
  ])

  # Each address's memberships, oldest first ("created id").
  holders = {
    for id, address in module.sync.addresses : address => format("%s %s", coalesce(local.records[id].created, "~"), id)...
  }

  # A user per address, keyed by its oldest membership's id (stable while
  # it holds the address), enabled while any of them is active.
  users = {
    for address, h in local.holders : split(" ", sort(h)[0])[1] => {
      name    = address
      enabled = anytrue([for x in h : contains(local.active, split(" ", x)[1])])
    }
  }
}

resource "openstack_identity_group_v3" "this" {
  name        = var.group_name
  domain_id   = var.domain_id
  description = "The active Join It members, kept by Terraform."
}

resource "openstack_identity_user_v3" "member" {
  for_each = local.users

  name        = each.value.name
  domain_id   = var.domain_id
  enabled     = each.value.enabled
  description = "A Join It member, kept by Terraform: enabled while a membership is active."
  extra       = { email = each.value.name, joinit_membership_id = each.key }
}

# planned carries member-sync's guards.
resource "openstack_identity_user_membership_v3" "member" {
  for_each = toset(module.sync.planned)

  user_id  = openstack_identity_user_v3.member[each.key].id
  group_id = openstack_identity_group_v3.this.id
}
