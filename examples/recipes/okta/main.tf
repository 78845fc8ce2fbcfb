# An Okta group whose members are the Okta users of the active Join It
# members, found by e-mail address. okta_group_memberships with
# track_all_users holds the whole group: a member whose membership ends, and
# anyone added by hand, is removed at the next apply. Three guards stop the
# plan first: too few users found, too many removals, another organization.

terraform {
  # An import block whose id is an expression needs 1.6.
  required_version = ">= 1.6"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    okta = {
      source  = "okta/okta"
      version = "6.12.0"
    }
  }
}

# The organization guard: every read fails on a record of another
# organization. Null reads JOINIT_ORGANIZATION_ID.
provider "joinit" {
  organization_id = var.joinit_organization_id
}

# The okta provider as you configure it: org_name, base_url and a token
# (api_token, or OKTA_API_TOKEN).

variable "okta_group_id" {
  description = "The Okta group (of type OKTA_GROUP) this configuration keeps, by id."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization the token must read. Null: JOINIT_ORGANIZATION_ID, or no check when that is unset too."
  type        = string
  default     = null
}

variable "min_members" {
  description = "Fewest Okta users the lookups must find. Fewer stops the plan: a wrong token, organization or search must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: a lookup that finds nobody would remove everyone."
  }
}

variable "max_removals" {
  description = "Most current group members one plan may remove: a whole number (0, 1, 25), or a fraction of the current members below 1 (0.1 is a tenth, rounded down). More stops the plan."
  type        = number
  default     = 0.1

  validation {
    condition     = var.max_removals >= 0 && (var.max_removals < 1 || floor(var.max_removals) == var.max_removals)
    error_message = "max_removals is a fraction below 1 (0.1) or a whole number of members (5), not negative."
  }
}

# The lean read: only ids and the distinct addresses, case kept.
data "joinit_memberships" "active" {
  status          = 100
  include_records = false
}

locals {
  # Okta's search compares addresses without case: one entry per address.
  addresses = toset([for e in data.joinit_memberships.active.emails : lower(trimspace(e)) if trimspace(e) != ""])
  # An address holding a quote or a backslash is left out of the search
  # (the provider puts value between quotes without escaping it) and
  # counted in addresses_not_found.
  unsearchable = toset([for e in local.addresses : e if length(regexall("[\"\\\\]", e)) > 0])
  emails       = sort(setsubtract(local.addresses, local.unsearchable))
  # All clauses of one okta_users make one search expression, sent in the
  # URL: 50 addresses a lookup.
  chunks = { for i, c in chunklist(local.emails, 50) : format("%04d", i) => c }
}

data "okta_users" "members" {
  for_each = local.chunks

  # The default, "and", asks for one user with every address: nobody.
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

# The group's members as Okta reports them now, by user id.
data "okta_group" "this" {
  id            = var.okta_group_id
  include_users = true
}

locals {
  found = flatten([for k, d in data.okta_users.members : d.users])
  # E-mail is not unique in Okta: an address may find several users. A
  # deprovisioned user gains nothing from a group.
  desired   = toset([for u in local.found : u.id if u.status != "DEPROVISIONED"])
  current   = toset(data.okta_group.this.users)
  to_add    = setsubtract(local.desired, local.current)
  to_remove = setsubtract(local.current, local.desired)
  # Join It addresses no Okta user was found for, the unsearchable ones
  # included.
  not_found = setunion(local.unsearchable, setsubtract(toset(local.emails), toset([for u in local.found : lower(u.email) if u.email != null])))

  # A fraction counts the current members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(local.current)) : var.max_removals
}

resource "okta_group_memberships" "this" {
  group_id = var.okta_group_id
  users    = local.desired
  # Each refresh reads every member of the group, so users added outside
  # Terraform are removed too; false only removes users it added.
  track_all_users = true

  lifecycle {
    precondition {
      condition     = length(local.desired) >= var.min_members
      error_message = "Found ${length(local.desired)} Okta users for ${length(local.emails)} Join It addresses, fewer than min_members (${var.min_members}): nothing was changed. Check the tokens, the organization and the search."
    }
    precondition {
      condition     = length(local.to_remove) <= local.max_removals
      error_message = "This plan would remove ${length(local.to_remove)} of the group's ${length(local.current)} members, more than max_removals allows (${local.max_removals}): nothing was changed. If the removals are meant, raise max_removals for this plan."
    }
  }
}

# Adopt the group as it is: its current members land in state, so the first
# plan already removes those who are not Join It members (within
# max_removals). Once in state, this block does nothing.
import {
  to = okta_group_memberships.this
  id = "${var.okta_group_id}/true"
}

# Counts, not lists: a long list as a root output is costly to plan.
output "members" {
  value = length(local.desired)
}

output "to_add" {
  value = length(local.to_add)
}

output "to_remove" {
  value = length(local.to_remove)
}

output "addresses_not_found" {
  description = "Join It addresses with no Okta user found, those the search cannot hold (a quote or a backslash) included (count only: no personal data in the plan log)."
  value       = length(local.not_found)
}
