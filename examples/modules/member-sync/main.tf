# A guarded sync: the members a downstream group (SSO, Slack, a mailing list)
# should have, from Join It memberships, against the members it has. The
# caller applies to_add and to_remove with the downstream system's own
# resources. Three guards stop a plan before it does harm: too few desired
# members (a wrong token or filter reads nobody), too many removals at once
# (a renamed membership type, a filter typo), and records of another
# organization.

data "joinit_memberships" "desired" {
  status           = var.status
  membership_names = var.membership_names
  # Two fields of each membership: what the sync and its guard compare.
  fields = ["email", "organization_id"]

  lifecycle {
    postcondition {
      condition     = length(distinct([for r in self.records : lower(trimspace(r.email)) if trimspace(coalesce(r.email, " ")) != ""])) >= var.min_members
      error_message = "Read ${length(self.records)} memberships with ${length(distinct([for r in self.records : lower(trimspace(r.email)) if trimspace(coalesce(r.email, " ")) != ""]))} distinct e-mail addresses, fewer than min_members (${var.min_members}): nothing was changed. Check the token, the organization and the filters, or lower min_members if the organization really shrank."
    }
    postcondition {
      condition     = var.organization_id == null || alltrue([for r in self.records : r.organization_id == null || r.organization_id == var.organization_id])
      error_message = "Memberships of another organization than ${coalesce(var.organization_id, "-")} were read (${join(", ", distinct([for r in self.records : r.organization_id if r.organization_id != null && r.organization_id != var.organization_id]))}): the access token may belong to another organization. Nothing was changed."
    }
  }
}

locals {
  # Addresses are compared lower-cased and trimmed; memberships without one
  # are left out.
  desired = toset([for r in data.joinit_memberships.desired.records : lower(trimspace(r.email)) if trimspace(coalesce(r.email, " ")) != ""])
  current = toset([for e in var.current_members : lower(trimspace(e))])

  to_add = sort(setsubtract(local.desired, local.current))
  # Removals keep the downstream system's own spelling, so that its
  # resources, keyed by it, are found.
  to_remove = sort([for e in var.current_members : e if !contains(local.desired, lower(trimspace(e)))])

  # A fraction counts the current members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(var.current_members)) : var.max_removals
}
