# Turns Join It memberships into user groups of an SSO directory or a Slack
# workspace:
#   * "members" holds every active member. It uses the lean read
#     (include_records = false), which returns only ids and distinct e-mail
#     addresses, and stays quick for organizations with 100,000 members.
#   * "members-<membership name>" holds the active members of each membership
#     type. Grouping needs membership_name, so it reads two fields of each
#     membership (fields = ["email", "membership_name"]): the other fields
#     are never decoded or stored in state. Set per_membership_type_groups =
#     false to skip it.
#   * membership_names, when set, limits both reads to those membership
#     types (the provider filters after reading every active membership).
#   * A postcondition stops the plan when fewer active members are read
#     than min_active_members: a wrong token, filter or server must never
#     empty the groups and revoke everyone's access.
#
# The provider reads JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the
# environment, and JOINIT_ORGANIZATION_ID, when set, makes every read fail
# on records of another organization. The module in ./modules/user-group is a stand-in for the
# resources of your SSO or chat provider.

terraform {
  required_version = ">= 1.5"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

provider "joinit" {}

variable "group_prefix" {
  description = "Name of the group of all active members, and prefix of the per-type group names."
  type        = string
  default     = "members"

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,40}$", var.group_prefix))
    error_message = "The prefix must be lowercase letters, digits or hyphens."
  }
}

variable "per_membership_type_groups" {
  description = "Also create one group per membership type (reads the e-mail and membership name of each active membership)."
  type        = bool
  default     = true
}

variable "min_active_members" {
  description = "Fewest active members a plan may read. A read below it stops the plan instead of removing people from the groups: set it a little under your usual count."
  type        = number
  default     = 1

  validation {
    condition     = var.min_active_members >= 1
    error_message = "Keep the floor at 1 or more: an empty list would empty every group."
  }
}

variable "membership_names" {
  description = "Only these membership types (by name); null for every type."
  type        = set(string)
  default     = null
}

# Lean read: ids and e-mail addresses of active memberships only.
data "joinit_memberships" "active_emails" {
  status           = "active"
  include_records  = false
  membership_names = var.membership_names

  lifecycle {
    # Every page was read (the provider fails rather than return part of a
    # list), but a valid-looking answer can still be the wrong one: another
    # organization's token, a filter that matches nobody. Stop the plan
    # before the groups are emptied.
    postcondition {
      condition     = length(self.ids) >= var.min_active_members
      error_message = "Read ${length(self.ids)} active memberships, fewer than min_active_members (${var.min_active_members}): the groups were not changed. Check the token, the organization and the membership_names filter, or lower min_active_members if the organization really shrank."
    }
  }
}

# Two fields of each active membership, only when per-type groups are wanted.
data "joinit_memberships" "active" {
  count = var.per_membership_type_groups ? 1 : 0

  status           = "active"
  fields           = ["email", "membership_name"]
  membership_names = var.membership_names
}

locals {
  active_records = flatten(data.joinit_memberships.active[*].records)

  # Group key => membership records. Names are turned into lowercase letters,
  # digits and hyphens; names that differ only in case or punctuation share a
  # group.
  records_by_group = {
    for m in local.active_records :
    "${var.group_prefix}-${trim(replace(lower(m.membership_name), "/[^a-z0-9]+/", "-"), "-")}" => m...
    if m.membership_name != null
  }

  # E-mail can be null, and one address can hold several memberships, so
  # nulls are dropped and duplicates merged.
  type_groups = {
    for key, records in local.records_by_group : key => {
      description   = "Active Join It members with the ${join(" or ", sort(distinct(records[*].membership_name)))} membership."
      member_emails = distinct([for m in records : lower(trimspace(m.email)) if m.email != null])
    }
  }

  groups = merge(
    {
      (var.group_prefix) = {
        description   = "Every active Join It member."
        member_emails = data.joinit_memberships.active_emails.emails
      }
    },
    local.type_groups,
  )
}

module "user_group" {
  source   = "./modules/user-group"
  for_each = local.groups

  name          = each.key
  description   = each.value.description
  member_emails = each.value.member_emails
}

output "group_member_counts" {
  description = "Members per group."
  value       = { for key, group in module.user_group : key => group.member_count }
}

output "active_membership_count" {
  description = "Active memberships (several memberships can share one e-mail address)."
  value       = length(data.joinit_memberships.active_emails.ids)
}
