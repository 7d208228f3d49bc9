package dev.fleche.validation;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.InternalServerErrorException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Resource methods that fail in every way the problem mappers distinguish. */
@Path("fail")
@Produces(MediaType.TEXT_PLAIN)
public class Failures {
    @GET
    @Path("unexpected")
    public String unexpected() {
        throw new IllegalStateException("connection to jdbc:h2:secret-db refused");
    }

    @GET
    @Path("throttled")
    public String throttled() {
        throw new WebApplicationException(Response.status(429).header("Retry-After", "30")
                .header("X-RateLimit-Remaining", "0").build());
    }

    @GET
    @Path("conflict")
    public String conflict() {
        throw new ClientErrorException("Order 42 is already shipped.", 409);
    }

    @GET
    @Path("bad")
    public String bad() {
        throw new BadRequestException();
    }

    @GET
    @Path("internal")
    public String internal() {
        throw new InternalServerErrorException("pool exhausted at db-3.internal");
    }

    @GET
    @Path("own-body")
    public String ownBody() {
        throw new WebApplicationException(Response.status(402).type(MediaType.TEXT_PLAIN).entity("pay first").build());
    }

    /** A constraint that cannot apply to its type: Hibernate Validator throws an UnexpectedTypeException. */
    @GET
    @Path("misdeclared")
    public String misdeclared(@QueryParam("n") @jakarta.validation.constraints.Size(max = 2) Integer n) {
        return "unreachable";
    }

    @GET
    @Path("number")
    public String number(@QueryParam("n") int n, @HeaderParam("X-Count") Integer count) {
        return n + "/" + count;
    }
}
