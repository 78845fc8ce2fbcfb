# Keeps an existing Slack user group's users equal to the active Join It
# members, looked up by e-mail address: slack_usergroup's users is the whole
# list, so a member whose membership ends is removed at the next apply. For
# a few dozen members: one Slack API call per member and plan. Three guards
# stop a plan before it does harm: too few users, too many removals at
# once, and records of another organization.

terraform {
  # Import blocks need 1.5.
  required_version = ">= 1.5"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    slack = {
      source = "pablovarela/slack"
      # The last release (April 2023), whose source this recipe was checked
      # against.
      version = "1.2.2"
    }
  }
}

# JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
provider "joinit" {
  # The organization guard: a record of another organization fails the
  # read (or set JOINIT_ORGANIZATION_ID and drop this line).
  organization_id = var.joinit_organization_id
}

# SLACK_TOKEN from the environment: a token with users:read,
# users:read.email, usergroups:read and usergroups:write.
provider "slack" {}

variable "usergroup_id" {
  description = "The Slack user group's ID (S0123ABCD)."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds: a record of another stops the plan."
  type        = string
}

variable "min_members" {
  description = "Fewest Slack users the group may be given. Fewer stops the plan: a wrong token or organization must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty list would remove everyone."
  }
}

variable "max_removals" {
  description = "Most current group users one plan may remove: a whole number, or a fraction below 1 of the current users (0.1, rounded down)."
  type        = number
  default     = 0.1

  validation {
    condition     = var.max_removals >= 0 && (var.max_removals < 1 || floor(var.max_removals) == var.max_removals)
    error_message = "max_removals is a fraction below 1 (0.1) or a whole number of users (5), not negative."
  }
}

# The lean read: ids and distinct addresses only.
data "joinit_memberships" "active" {
  status          = 100
  include_records = false

  lifecycle {
    # Before any Slack call: too few addresses stop the plan here.
    postcondition {
      condition     = length(distinct([for e in self.emails : lower(trimspace(e)) if trimspace(e) != ""])) >= var.min_members
      error_message = "Join It returned ${length(distinct([for e in self.emails : lower(trimspace(e)) if trimspace(e) != ""]))} distinct addresses, fewer than min_members (${var.min_members}): nothing was looked up or changed. Check the token and the organization."
    }
  }
}

locals {
  # One lookup per person: addresses differing only in case or
  # surrounding space are one.
  emails = toset([for e in data.joinit_memberships.active.emails : lower(trimspace(e)) if trimspace(e) != ""])
}

# users.lookupByEmail, one call per address. An address with no Slack
# account fails the plan (users_not_found).
data "slack_user" "member" {
  for_each = local.emails
  email    = each.key
}

data "slack_usergroup" "this" {
  usergroup_id = var.usergroup_id
}

locals {
  desired   = toset([for u in data.slack_user.member : u.id])
  current   = toset(data.slack_usergroup.this.users)
  to_add    = sort(setsubtract(local.desired, local.current))
  to_remove = sort(setsubtract(local.current, local.desired))

  # A fraction counts the current users, rounded down.
  max_removals = var.max_removals < 1 ? floor(var.max_removals * length(local.current)) : var.max_removals
}

# Adopt the existing group once; later plans skip this.
import {
  to = slack_usergroup.this
  id = var.usergroup_id
}

resource "slack_usergroup" "this" {
  # Every update sends name, handle, description and channels: copied from
  # the group as Slack has it, so an apply changes only its users.
  name        = data.slack_usergroup.this.name
  handle      = data.slack_usergroup.this.handle
  description = data.slack_usergroup.this.description
  channels    = data.slack_usergroup.this.channels
  users       = local.desired

  lifecycle {
    precondition {
      condition     = length(local.desired) >= var.min_members
      error_message = "Found ${length(local.desired)} Slack users, fewer than min_members (${var.min_members}): nothing was changed."
    }
    precondition {
      condition     = length(local.to_remove) <= local.max_removals
      error_message = "This plan would remove ${length(local.to_remove)} of the group's ${length(local.current)} users, more than max_removals allows (${local.max_removals}): nothing was changed. If the removals are meant, raise max_removals for this plan."
    }
  }
}

output "member_count" {
  description = "Slack users the group should hold."
  value       = length(local.desired)
}

output "to_add_count" {
  description = "Users this plan adds."
  value       = length(local.to_add)
}

output "to_remove_count" {
  description = "Users this plan removes."
  value       = length(local.to_remove)
}
