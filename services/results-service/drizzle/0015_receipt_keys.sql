CREATE TABLE "results_service"."receipt_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"generation" integer NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_keys_generation_unique" UNIQUE("generation")
);
