# Keeps an existing Microsoft Entra ID group's members equal to the active
# Join It members whose address is the `mail` of an Entra user. One
# azuread_group_member per user: members already in the group are imported,
# not added twice. Three guards stop a plan before it does harm: too few
# users found, too many removals at once, and records of another
# organization.

terraform {
  # for_each in import blocks needs 1.7.
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    azuread = {
      source = "hashicorp/azuread"
      # The release whose source this recipe was checked against.
      version = "3.9.0"
    }
  }
}

# JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
provider "joinit" {
  # The organization guard: a record of another organization fails the
  # read (or set JOINIT_ORGANIZATION_ID and drop this line).
  organization_id = var.joinit_organization_id
}

# ARM_TENANT_ID, ARM_CLIENT_ID and a secret or OIDC from the environment.
# The application needs User.Read.All and Group.ReadWrite.All (or to own
# the group and Group.Read.All).
provider "azuread" {}

variable "group_object_id" {
  description = "The Entra group's object ID (a UUID, not \"/groups/<uuid>\")."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds: a record of another stops the plan."
  type        = string
}

variable "min_members" {
  description = "Fewest Entra users the lookup must find. Fewer stops the plan: a wrong token, organization or tenant must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty lookup would remove everyone."
  }
}

variable "max_removals" {
  description = "Most current group members one plan may remove: a whole number, or a fraction below 1 of the current members (0.1, rounded down)."
  type        = number
  default     = 0.1

  validation {
    condition     = var.max_removals >= 0 && (var.max_removals < 1 || floor(var.max_removals) == var.max_removals)
    error_message = "max_removals is a fraction below 1 (0.1) or a whole number of members (5), not negative."
  }
}

# The lean read: ids and distinct addresses only.
data "joinit_memberships" "active" {
  status          = 100
  include_records = false
}

locals {
  # Each spelling as Join It has it (case kept), without surrounding space
  # or blanks, which mails refuses: right whether or not Graph compares
  # case, at one request per spelling.
  addresses = distinct([for e in data.joinit_memberships.active.emails : trimspace(e) if trimspace(e) != ""])
}

# One Graph request per address, one after another. An address that is no
# user's `mail` is skipped without an error.
data "azuread_users" "members" {
  mails          = local.addresses
  ignore_missing = true

  # 5 minutes unless set: the requests and their waits on HTTP 429 share it.
  timeouts {
    read = "15m"
  }

  lifecycle {
    precondition {
      condition     = length(local.addresses) >= var.min_members
      error_message = "Join It returned ${length(local.addresses)} addresses, fewer than min_members (${var.min_members}): nothing was looked up or changed. Check the token and the organization."
    }
    postcondition {
      condition     = length(toset(self.object_ids)) >= var.min_members
      error_message = "Found ${length(toset(self.object_ids))} Entra users for ${length(local.addresses)} addresses, fewer than min_members (${var.min_members}): nothing was changed. mails matches a user's mail only, not a UPN or an alias."
    }
  }
}

data "azuread_group" "this" {
  object_id = var.group_object_id
}

locals {
  # Several spellings of one address find one user: object IDs are the key.
  desired   = toset(data.azuread_users.members.object_ids)
  current   = toset(data.azuread_group.this.members)
  to_add    = setsubtract(local.desired, local.current)
  to_remove = setsubtract(local.current, local.desired)

  # A fraction counts the current members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(local.current)) : var.max_removals

  # Addresses Entra has no user for (compared without case).
  found_mails = toset([for u in data.azuread_users.members.users : lower(u.mail)])
  not_found   = [for e in local.addresses : e if !contains(local.found_mails, lower(e))]
}

# Members the group has already: creating them again would fail.
import {
  for_each = setintersection(local.desired, local.current)
  to       = azuread_group_member.this[each.key]
  id       = "${var.group_object_id}/member/${each.key}"
}

resource "azuread_group_member" "this" {
  for_each = local.desired

  # object_id, a UUID: the group's id is "/groups/<uuid>".
  group_object_id  = data.azuread_group.this.object_id
  member_object_id = each.key
}

output "member_count" {
  description = "Entra users the group should hold."
  value       = length(local.desired)
}

output "to_add_count" {
  description = "Users this plan adds."
  value       = length(local.to_add)
}

output "to_remove_count" {
  description = "Current members that are not Join It members found in Entra."
  value       = length(local.to_remove)

  precondition {
    condition     = length(local.to_remove) <= local.max_removals
    error_message = "This plan would remove up to ${length(local.to_remove)} of the group's ${length(local.current)} members, more than max_removals allows (${local.max_removals}): nothing was changed. If the removals are meant, raise max_removals for this plan."
  }
}

output "addresses_not_found_count" {
  description = "Join It addresses that are no Entra user's mail (local.not_found lists them)."
  value       = length(local.not_found)
}
