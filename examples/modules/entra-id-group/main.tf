# An Entra group whose members are the Entra users of the Join It members,
# found by mail. member-sync reads Join It and holds the guards. The root
# imports the members the group holds already: creating them would fail.

module "sync" {
  source = "../member-sync"

  status           = var.status
  membership_names = var.membership_names
  current_members  = data.azuread_group.this.members
  desired_members  = local.found_ids
  min_members      = var.min_members
  max_removals     = var.max_removals
  organization_id  = var.organization_id
}

locals {
  # One Graph request per address, in turn: 100 a lookup, read side by side.
  chunks = { for i, c in chunklist(module.sync.members, 100) : format("%04d", i) => c }
}

# `mails` matches the `mail` property only, not a UPN or an alias. An
# address that is no user's mail is skipped (ignore_missing); two users
# with one mail fail the read.
data "azuread_users" "members" {
  for_each = local.chunks

  mails          = each.value
  ignore_missing = true

  timeouts { # shared by the requests and their waits on HTTP 429
    read = var.lookup_timeout
  }
}

# The group's direct members now, however added.
data "azuread_group" "this" {
  object_id = var.group_object_id
}

locals {
  users     = flatten([for k, d in data.azuread_users.members : d.users])
  found_ids = toset([for u in local.users : u.object_id])
  # Entra's spelling; members are lower-cased already.
  found_mails = toset([for u in local.users : lower(u.mail)])
  not_found   = sort(setsubtract(module.sync.members, local.found_mails))
}

resource "azuread_group_member" "this" {
  for_each = toset(module.sync.planned) # the guards: a plan failing one changes nothing

  # The UUID, as the root's import ids spell it (not "/groups/<uuid>").
  group_object_id  = var.group_object_id
  member_object_id = each.key
}
