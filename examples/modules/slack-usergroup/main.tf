# An existing Slack user group whose users are the Join It members, looked
# up by e-mail address. slack_usergroup's users is the whole list: a member
# whose membership ends is removed at the next apply. member-sync reads
# Join It, compares and holds the guards; this module looks the addresses
# up and gives member-sync the user ids found.
#
# An address with no Slack account stops the plan: data "slack_user" fails
# with "not found <address>: users_not_found", and a data source's error
# cannot be caught (try() does not, and a check block's scoped data source
# cannot use for_each nor be read outside it). So not_found is always empty.

module "sync" {
  source = "../member-sync"

  status           = var.status
  membership_names = var.membership_names

  current_members = data.slack_usergroup.this.users
  desired_members = [for u in data.slack_user.member : u.id]

  min_members     = var.min_members
  max_removals    = var.max_removals
  organization_id = var.organization_id
}

locals {
  # Each distinct address read, keyed by the id of one of its memberships
  # (the first in order): one lookup per address, and a plan log that names
  # memberships, not people.
  ids_by_address = { for id, a in module.sync.addresses : a => id... }
  lookups        = { for a, ids in local.ids_by_address : ids[0] => a }
}

# users.lookupByEmail, one call per address and plan.
data "slack_user" "member" {
  for_each = local.lookups
  email    = each.value
}

# The group as Slack has it now (usergroups.list with its users); a
# disabled group is not found: enable it first.
data "slack_usergroup" "this" {
  usergroup_id = var.usergroup_id
}

resource "slack_usergroup" "this" {
  # Every update sends name, handle, description and channels with the
  # users: copied from the group as Slack has it, so an apply changes only
  # its users.
  name        = data.slack_usergroup.this.name
  handle      = data.slack_usergroup.this.handle
  description = data.slack_usergroup.this.description
  channels    = data.slack_usergroup.this.channels
  users       = module.sync.planned
}
