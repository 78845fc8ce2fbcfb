# A Google Workspace group whose members are the active Join It members, by
# e-mail address, plus the owners and managers you list.
# googleworkspace_group_members holds the whole member list: a member whose
# membership ends, and anyone not listed, owners included, is removed at the
# next apply. Three guards stop the plan first: too few addresses, too many
# removals, another organization.

terraform {
  # An import block whose id is an expression needs 1.6.
  required_version = ">= 1.6"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    googleworkspace = {
      # hashicorp/googleworkspace is archived (last release v0.7.0); this
      # fork keeps its schema.
      source  = "SamuZad/googleworkspace"
      version = "0.11.5"
    }
  }
}

# The organization guard: every read fails on a record of another
# organization. Null reads JOINIT_ORGANIZATION_ID.
provider "joinit" {
  organization_id = var.joinit_organization_id
}

# The googleworkspace provider as you configure it: credentials,
# customer_id, impersonated_user_email, and the scope
# https://www.googleapis.com/auth/admin.directory.group.

variable "group_email" {
  description = "The group this configuration keeps: its address (or id)."
  type        = string
}

variable "keep_members" {
  description = "Addresses that stay in the group whatever Join It says, with their role: the group's owners and managers (OWNER, MANAGER), or anyone else (MEMBER). A Join It member listed here gets this role; every other one is a MEMBER."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for r in values(var.keep_members) : contains(["OWNER", "MANAGER", "MEMBER"], r)])
    error_message = "A role in keep_members is OWNER, MANAGER or MEMBER."
  }
}

variable "member_domains" {
  description = "Only Join It addresses of these domains (for example [\"example.org\"]), for a group that does not allow external members. Empty: every address."
  type        = set(string)
  default     = []
}

variable "joinit_organization_id" {
  description = "The Join It organization the token must read. Null: JOINIT_ORGANIZATION_ID, or no check when that is unset too."
  type        = string
  default     = null
}

variable "min_members" {
  description = "Fewest Join It addresses a plan may keep (after member_domains). Fewer stops the plan: a wrong token, organization or filter must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty read would remove everyone but keep_members."
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

# The group's members as Google reports them now.
data "googleworkspace_group_members" "current" {
  group_id = var.group_email
}

locals {
  domains = [for d in var.member_domains : lower(trimspace(d))]
  # Google ignores case in addresses: one entry per address.
  joinit = toset([
    for e in data.joinit_memberships.active.emails : lower(trimspace(e))
    if trimspace(e) != "" && (length(local.domains) == 0 || anytrue([for d in local.domains : endswith(lower(trimspace(e)), "@${d}")]))
  ])
  keep    = { for e, r in var.keep_members : lower(trimspace(e)) => r }
  desired = setunion(local.joinit, keys(local.keep))

  # Each current member's address as Google spells it, by lower case: the
  # resource compares addresses exactly, so a member is named as Google
  # reports them, or the plan removes and re-adds them.
  spelling  = { for m in data.googleworkspace_group_members.current.members : lower(m.email) => m.email... }
  current   = toset(keys(local.spelling))
  to_add    = setsubtract(local.desired, local.current)
  to_remove = setsubtract(local.current, local.desired)

  # A fraction counts the current members, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(local.current)) : var.max_removals
}

resource "googleworkspace_group_members" "this" {
  group_id = var.group_email

  dynamic "members" {
    for_each = local.desired
    content {
      email = try(local.spelling[members.value][0], members.value)
      role  = lookup(local.keep, members.value, "MEMBER")
    }
  }

  lifecycle {
    precondition {
      condition     = length(local.joinit) >= var.min_members
      error_message = "Read ${length(local.joinit)} Join It addresses to keep, fewer than min_members (${var.min_members}): nothing was changed. Check the token, the organization and member_domains."
    }
    precondition {
      condition     = length(local.to_remove) <= local.max_removals
      error_message = "This plan would remove ${length(local.to_remove)} of the group's ${length(local.current)} members, more than max_removals allows (${local.max_removals}): nothing was changed. If the removals are meant, raise max_removals for this plan."
    }
  }
}

# Adopt the group as it is: creating the resource would add every member
# again, and Google refuses a member who is already there. Once in state,
# this block does nothing.
import {
  to = googleworkspace_group_members.this
  id = "groups/${var.group_email}"
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
