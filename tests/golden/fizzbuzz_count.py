def fizzbuzz_count(n):
    """Seed 003 fizzbuzz, counting instead of printing, over a range that may be traced."""
    fizz = 0
    buzz = 0
    fizzbuzz = 0
    def loop_body(i, fizz, buzz, fizzbuzz):
        def if_true_2(fizz, buzz, fizzbuzz):
            fizzbuzz += 1
            return (fizz, buzz, fizzbuzz)
        def if_false_1(fizz, buzz, fizzbuzz):
            def if_true_1(fizz, buzz):
                fizz += 1
                return (fizz, buzz)
            def if_false(fizz, buzz):
                def if_true(buzz):
                    buzz += 1
                    return buzz
                buzz = ag.if_stmt(i % 5 == 0, if_true, None, (buzz,), names=('buzz',))
                return (fizz, buzz)
            fizz, buzz = ag.if_stmt(i % 3 == 0, if_true_1, if_false, (fizz, buzz), names=('fizz', 'buzz'))
            return (fizz, buzz, fizzbuzz)
        fizz, buzz, fizzbuzz = ag.if_stmt(i % 15 == 0, if_true_2, if_false_1, (fizz, buzz, fizzbuzz), names=('fizz', 'buzz', 'fizzbuzz'))
        return (fizz, buzz, fizzbuzz)
    fizz, buzz, fizzbuzz = ag.for_stmt(ag.range(1, n + 1), loop_body, (fizz, buzz, fizzbuzz), names=('fizz', 'buzz', 'fizzbuzz'))
    return (fizz, buzz, fizzbuzz)
