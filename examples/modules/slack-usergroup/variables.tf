# The group.

variable "usergroup_id" {
  description = "The Slack user group this module keeps, by id (S0123ABCD). It must exist and be enabled; the root's import block adopts it."
  type        = string
}

# What to read from Join It: passed to member-sync.

variable "status" {
  description = "Membership status of the members the group holds: a name (prospective, pending, active, expired, cancelled) or its code. Every sync module called with the same status (and no other fields) shares one read of Join It."
  type        = string
  default     = "active"
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type."
  type        = set(string)
  default     = null
}

# The guards: passed to member-sync, which checks them.

variable "min_members" {
  description = "Fewest Slack users a plan may give the group. Fewer stops the plan: a wrong token, organization or filter must not empty the group."
  type        = number
  default     = 1
}

variable "max_removals" {
  description = "Most of the group's users one plan may remove: a whole number (0, 1, 25), or a fraction below 1 of its users (0.1 is a tenth, rounded down). More stops the plan."
  type        = number
  default     = 0.1
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization, or the plan stops. Null checks nothing here (the provider's organization_id still does)."
  type        = string
  default     = null
}
