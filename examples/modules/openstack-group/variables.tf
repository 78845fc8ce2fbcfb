variable "group_name" {
  description = "The Keystone group this module creates and keeps equal to the active members."
  type        = string
}

variable "domain_id" {
  description = "The Keystone domain of the group and of the members' users."
  type        = string
  default     = "default"
}

variable "status" {
  description = "Membership status that keeps a user enabled and in the group: a name (prospective, pending, active, expired, cancelled; any case) or its code (100). Every status is read: the users of the others are kept, disabled."
  type        = string
  default     = "active"

  validation {
    condition     = can(regex("^[0-9]+$", var.status)) || contains(["prospective", "pending", "active", "expired", "cancelled"], lower(var.status))
    error_message = "status is a name (prospective, pending, active, expired, cancelled) or a whole-number code (100)."
  }
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type. A member of another type gets no user."
  type        = set(string)
  default     = null
}

variable "previous_members" {
  description = "The group as the last apply left it: this module's planned output (user keys, not addresses), read back from the state (terraform_remote_state). The OpenStack provider cannot list a group's users, so max_removals counts against it. Null (the first apply, or no state to read) checks no removals."
  type        = set(string)
  default     = null
}

variable "min_members" {
  description = "Fewest users the group may be planned to hold (member-sync's guard): active members with an address, one per address. Fewer stops the plan: a wrong token, organization or filter must not empty the group."
  type        = number
  default     = 1
}

variable "max_removals" {
  description = "Most of previous_members one plan may remove (member-sync's guard): a whole number (0, 1, 25), or a fraction below 1 (0.1 is a tenth, rounded down: no removal at all from a group of fewer than 10). More stops the plan. A changed address is no removal (the user is renamed)."
  type        = number
  default     = 0.1
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization (member-sync's guard; records without organization_id pass). Null checks nothing here."
  type        = string
  default     = null
}
