"""An independent check of the reported intervals: Wilson's, solved as a quadratic."""


def wilson_by_quadratic(wins, n, z=1.959964):
    """The 95% Wilson interval as the two roots of (p_hat - p)^2 = z^2 p (1 - p) / n."""
    p_hat = wins / n
    a, b, c = 1 + z * z / n, -(2 * p_hat + z * z / n), p_hat * p_hat
    root = (b * b - 4 * a * c) ** 0.5
    return (-b - root) / (2 * a), (-b + root) / (2 * a)
