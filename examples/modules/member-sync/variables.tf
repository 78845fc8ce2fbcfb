# What to read from Join It.

variable "status" {
  description = "Membership status of the members read: a name (prospective, pending, active, expired, cancelled) or its code (100). Null reads every status (a module that keeps departed members' accounts passes desired_members itself)."
  type        = string
  default     = "active"
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type."
  type        = set(string)
  default     = null
}

variable "fields" {
  description = "Fields of each membership to read besides id, email and organization_id (which are always read), for a module that keys its group by something else: [\"custom_answers\"], [\"status\"]. Every call of this module with the same status and fields shares one read of the API in a run."
  type        = list(string)
  default     = []
}

# The downstream group.

variable "current_members" {
  description = "The downstream group's members now, from its own provider: addresses, or the keys desired_members uses (user ids, usernames). Compared without regard to case or surrounding space."
  type        = set(string)
}

variable "desired_members" {
  description = "The keys the downstream group should hold, when it is not kept by address: the user ids the downstream's lookups found for the members output, or usernames. The module's own outputs may feed it. Null: the addresses read (members). Compared as current_members is."
  type        = set(string)
  default     = null
}

# The guards.

variable "min_members" {
  description = "Fewest members the group may be planned to hold (planned). Fewer stops the plan: a wrong token, organization, filter or lookup must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty read would remove everyone."
  }
}

variable "max_removals" {
  description = "Most current members one plan may remove: a whole number of members (0, 1, 25), or a fraction of the current members below 1 (0.1 is a tenth, rounded down: no removal at all from a group of fewer than 10). More stops the plan."
  type        = number
  default     = 0.1

  validation {
    condition     = var.max_removals >= 0 && (var.max_removals < 1 || floor(var.max_removals) == var.max_removals)
    error_message = "max_removals is a fraction below 1 (0.1) or a whole number of members (5), not negative."
  }
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization (records without organization_id pass, as in the provider's own guard). Null checks nothing here; the provider's organization_id (or JOINIT_ORGANIZATION_ID) checks every read."
  type        = string
  default     = null
}
