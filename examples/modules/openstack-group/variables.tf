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
  description = "Membership status of the members the group should have: 100 is active."
  type        = number
  default     = 100
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type. A member of another type gets no user."
  type        = set(string)
  default     = null
}

variable "previous_members" {
  description = "The group as the last apply left it: this module's members output, read back from the state (terraform_remote_state). The OpenStack provider cannot list a group's users, so max_removals counts against it. Null (the first apply, or no state to read) checks no removals."
  type        = set(string)
  default     = null
}

variable "min_members" {
  description = "Fewest active members with an e-mail a plan may read. Fewer stops the plan: a wrong token, organization or filter must not empty the group."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty read would remove everyone."
  }
}

variable "max_removals" {
  description = "Most of previous_members one plan may remove: a whole number (0, 1, 25), or a fraction below 1 (0.1 is a tenth, rounded down: no removal at all from a group of fewer than 10). More stops the plan."
  type        = number
  default     = 0.1

  validation {
    condition     = var.max_removals >= 0 && (var.max_removals < 1 || floor(var.max_removals) == var.max_removals)
    error_message = "max_removals is a fraction below 1 (0.1) or a whole number of members (5), not negative."
  }
}

variable "organization_id" {
  description = "When set, every membership read must belong to this Join It organization (records without organization_id pass). Null checks nothing."
  type        = string
  default     = null
}
