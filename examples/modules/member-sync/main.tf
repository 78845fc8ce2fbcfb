# The guarded core of every sync: which members a downstream group (an SSO
# group, a Slack user group, a mailing list) should hold, from Join It
# memberships, against the members it holds. A downstream module calls it,
# looks up its own users for the addresses read (members) when its group is
# not kept by address, passes their keys back as desired_members, and gives
# its resource planned. The three guards live here and nowhere else: too few
# members planned (a wrong token, filter or lookup reads nobody), too many
# removals at once (a renamed membership type, a filter typo), and records of
# another organization. Addresses and keys are compared lower-cased and
# trimmed, here and nowhere else.

data "joinit_memberships" "this" {
  status           = var.status
  membership_names = var.membership_names
  # Only what the sync and its guards read, in one order: every call with the
  # same status and fields is one read of the API (the provider's cache).
  fields = sort(distinct(concat(["id", "email", "organization_id"], var.fields)))

  lifecycle {
    postcondition {
      condition     = var.organization_id == null || alltrue([for r in self.records : r.organization_id == null || r.organization_id == var.organization_id])
      error_message = "Memberships of another organization than ${coalesce(var.organization_id, "-")} were read (${join(", ", distinct([for r in self.records : r.organization_id if r.organization_id != null && r.organization_id != var.organization_id]))}): the access token may belong to another organization. Nothing was changed."
    }
  }
}

locals {
  # Each membership's address, compared lower-cased and trimmed; memberships
  # without one are left out.
  addresses = {
    for r in data.joinit_memberships.this.records : r.id => lower(trimspace(r.email))
    if trimspace(coalesce(r.email, " ")) != ""
  }
  members = toset(values(local.addresses))

  # The keys the group should hold, and those it holds, by their compared
  # form; each keeps one spelling: the group's own for a key it holds (so
  # its resource sees no change), else the one given. A key is found by
  # index (can, try): lookup() and contains() take time in the size of the
  # collection at each call, minutes for 10,000 members.
  keys      = var.desired_members == null ? local.members : var.desired_members
  desired   = { for k in local.keys : lower(trimspace(k)) => k... if trimspace(k) != "" }
  current   = { for k in var.current_members : lower(trimspace(k)) => k... }
  planned   = sort([for c, spellings in local.desired : try(local.current[c][0], spellings[0])])
  to_add    = sort([for c, spellings in local.desired : spellings[0] if !can(local.current[c])])
  to_remove = sort(flatten([for c, spellings in local.current : spellings if !can(local.desired[c])]))

  # A fraction counts the current members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(var.current_members)) : var.max_removals
}
