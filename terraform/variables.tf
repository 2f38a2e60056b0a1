variable "name" {
  description = "Name of the service, task family, IAM roles and log group."
  type        = string
  default     = "proxy"
}

variable "cluster_arn" {
  description = "ARN of the ECS cluster the proxy service runs in."
  type        = string
}

variable "launch_type" {
  description = "FARGATE (awsvpc network mode) or EXTERNAL (ECS Anywhere, bridge network mode)."
  type        = string
  default     = "FARGATE"

  validation {
    condition     = contains(["FARGATE", "EXTERNAL"], var.launch_type)
    error_message = "launch_type must be FARGATE or EXTERNAL."
  }
}

variable "subnet_ids" {
  description = "Subnets of the tasks' network interfaces (FARGATE only)."
  type        = list(string)
  default     = []
}

variable "security_group_ids" {
  description = "Security groups of the tasks' network interfaces (FARGATE only)."
  type        = list(string)
  default     = []
}

variable "assign_public_ip" {
  description = "Give Fargate tasks a public IP (needed to pull images without a NAT gateway or VPC endpoints)."
  type        = bool
  default     = false
}

variable "image" {
  description = "The proxy image (built from src/main/docker/Dockerfile), e.g. <account>.dkr.ecr.<region>.amazonaws.com/proxy:1.0."
  type        = string
}

variable "desired_count" {
  description = "Number of proxy tasks."
  type        = number
  default     = 2
}

variable "cpu" {
  description = "Task CPU units (Fargate sizes: 256, 512, ...)."
  type        = number
  default     = 512
}

variable "memory" {
  description = "Task memory in MiB."
  type        = number
  default     = 1024
}

variable "proxy_memory" {
  description = "Memory of the proxy container in MiB; the launcher gives half of it to the Java heap."
  type        = number
  default     = 256
}

variable "web_port" {
  description = "Port of the proxy's web entry point."
  type        = number
  default     = 8000
}

variable "watch_clusters" {
  description = "Clusters (names or ARNs) whose tasks the clusterTasks provider routes to. Empty: auto_discover_clusters must be true."
  type        = list(string)
  default     = []
}

variable "auto_discover_clusters" {
  description = "Watch every cluster of the account and region (grants ecs:ListClusters)."
  type        = bool
  default     = false
}

variable "ecs_anywhere" {
  description = "Resolve ECS Anywhere hosts through SSM (grants ssm:DescribeInstanceInformation)."
  type        = bool
  default     = false
}

variable "exposed_by_default" {
  description = "Route every container; false routes only containers labelled proxy.enable=true."
  type        = bool
  default     = false
}

variable "constraints" {
  description = "clusterTasks constraints expression, e.g. Label(`team`, `shop`). Null: none."
  type        = string
  default     = null
}

variable "consul_http_addr" {
  description = "Consul agent host:port for the registryCatalog provider. Null: no Consul."
  type        = string
  default     = null
}

variable "consul_token_arn" {
  description = "ARN of the Secrets Manager secret or SSM SecureString parameter holding the Consul ACL token. The token itself never passes through Terraform."
  type        = string
  default     = null

  validation {
    condition     = var.consul_token_arn == null || can(regex("^arn:[^:]+:(secretsmanager|ssm):", var.consul_token_arn))
    error_message = "consul_token_arn must be a Secrets Manager secret ARN or an SSM parameter ARN."
  }
}

variable "consul_connect" {
  description = "Route to Consul Connect services and register the proxy as Connect-native (needs consul_http_addr)."
  type        = bool
  default     = false
}

variable "app_container_definitions" {
  description = "Containers to run next to the proxy in the same task (the app a sidecar fronts), as ECS container definitions."
  type        = any
  default     = []
}

variable "extra_flags" {
  description = "More proxy configuration flags (--key=value) appended to the command."
  type        = list(string)
  default     = []
}

variable "target_group_arn" {
  description = "Load balancer target group for the web entry point. Null: no load balancer."
  type        = string
  default     = null
}

variable "log_retention_days" {
  description = "Retention of the CloudWatch log group."
  type        = number
  default     = 30
}

variable "tags" {
  description = "Tags of every resource."
  type        = map(string)
  default     = {}
}
