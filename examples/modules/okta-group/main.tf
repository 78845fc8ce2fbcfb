# An Okta group whose members are the Okta users of the Join It members,
# found by e-mail address. member-sync reads Join It and holds the guards.

module "sync" {
  source = "../member-sync"

  status           = var.status
  membership_names = var.membership_names
  current_members  = data.okta_group.this.users
  desired_members  = local.found_ids
  min_members      = var.min_members
  max_removals     = var.max_removals
  organization_id  = var.organization_id
}

locals {
  # The provider does not escape a clause's value: an address holding a
  # quote or a backslash is not searched, so not found.
  searchable = [for a in module.sync.members : a if length(regexall("[\"\\\\]", a)) == 0]
  # One okta_users is one expression in one URL: 50 addresses a search.
  chunks = { for i, c in chunklist(local.searchable, 50) : format("%04d", i) => c }
}

data "okta_users" "members" {
  for_each = local.chunks

  # The default, "and", asks for one user holding every address: nobody.
  compound_search_operator = "or"

  dynamic "search" {
    for_each = each.value
    content {
      name       = "profile.email"
      value      = search.value
      comparison = "eq"
    }
  }
}

data "okta_group" "this" {
  id            = var.group_id
  include_users = true
}

locals {
  # Every user of an address (e-mail is not unique in Okta), but deprovisioned.
  found     = [for u in flatten([for k, d in data.okta_users.members : d.users]) : u if u.status != "DEPROVISIONED"]
  found_ids = toset([for u in local.found : u.id])
  # Okta answers with its own spelling; members are lower-cased already.
  found_addresses = toset([for u in local.found : lower(u.email) if u.email != null])
  not_found       = sort(setsubtract(module.sync.members, local.found_addresses))
}

resource "okta_group_memberships" "this" {
  group_id = var.group_id
  users    = toset(module.sync.planned) # the guards: a plan failing one changes nothing
  # Each refresh lists the whole group: users added by hand go too.
  track_all_users = true
}
