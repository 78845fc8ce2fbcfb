variable "team_slug" {
  description = "The GitHub team whose members this module keeps, by slug (the provider's owner is the organization)."
  type        = string
}

variable "username_question" {
  description = "The Join It custom question whose answer is the member's GitHub username, exactly as the question reads."
  type        = string
  default     = "GitHub username"
}

variable "status" {
  description = "Membership status of the members the team should have: 100 is active."
  type        = number
  default     = 100
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type."
  type        = set(string)
  default     = null
}

variable "maintainers" {
  description = "Usernames (lower-case) that keep the maintainer role: the team's maintainers, and the organization's owners, whom GitHub reports as maintainers. Every other member is a member."
  type        = set(string)
  default     = []
}

variable "min_members" {
  description = "Fewest usernames a plan may read. Fewer stops the plan: a wrong token, organization, filter or question must not empty the team."
  type        = number
  default     = 1

  validation {
    condition     = var.min_members >= 1
    error_message = "Keep min_members at 1 or more: an empty read would remove everyone."
  }
}

variable "max_removals" {
  description = "Most current team members one plan may remove: a whole number (0, 1, 25), or a fraction of the current members below 1 (0.1 is a tenth, rounded down: no removal at all from a team of fewer than 10). More stops the plan."
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
